import type { UnsavedText } from '../OpenDocument'

/** Where backups of unsaved text are kept, per workspace (a stack's sandbox) and path. */
export interface BackupStore {
  /** Keeps `unsaved` for `scope`; resolves to the paths of older backups dropped to stay in bounds. */
  put(scope: string, unsaved: UnsavedText): Promise<string[]>
  delete(scope: string, path: string): Promise<void>
  /** The backups of `scope` that no other open tab of this browser is keeping, oldest first. */
  orphans(scope: string): Promise<UnsavedText[]>
}

/** All backups of one origin together: beyond it, the oldest go first (and the user is told). */
export const backupLimitBytes = 50 * 1024 * 1024

interface Meta {
  key: string
  scope: string
  path: string
  baseHash: string | undefined
  /** The tab that writes it (`tabId`), which holds a Web Lock of that name while it lives. */
  owner: string
  savedAt: number
  /** Stored size: UTF-16, two bytes a character. */
  bytes: number
}

const dbName = 'sandbox-ide-backups'
const lockPrefix = 'sandbox-ide:backups:'
const keyOf = (scope: string, path: string) => `${scope}\n${path}`

function result<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}

function finished(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error)
    tx.onabort = () => reject(tx.error ?? new Error('the backup was not written'))
  })
}

function openDatabase(): Promise<IDBDatabase> {
  const request = indexedDB.open(dbName, 1)
  request.onupgradeneeded = () => {
    request.result.createObjectStore('meta', { keyPath: 'key' })
    request.result.createObjectStore('texts')
  }
  return result(request)
}

/** The tabs of this browser alive now, by the locks they hold (all owners count as alive without Web Locks). */
async function liveOwners(): Promise<((owner: string) => boolean) | undefined> {
  if (!navigator.locks) return undefined
  const { held = [] } = await navigator.locks.query()
  const names = new Set(held.map((lock) => lock.name))
  return (owner) => names.has(lockPrefix + owner)
}

/**
 * Backups in IndexedDB, which every engine has and which survives a crash of the tab or the
 * browser (localStorage's 5 MB and its synchronous writes on every keystroke would not do).
 * Texts and their descriptions are kept apart, so bounding the total reads only the small ones.
 * Each tab holds a Web Lock named after it for as long as it lives: a backup whose tab holds
 * none was left by a tab that died, and is the next page's to restore. Rejects where the
 * browser denies storage (a third-party iframe, some private windows).
 */
export async function openBackupStore(me: string, limit = backupLimitBytes): Promise<BackupStore> {
  const db = await openDatabase()
  void navigator.locks?.request(lockPrefix + me, () => new Promise<never>(() => {}))
  return {
    async put(scope, { path, text, baseHash }) {
      const key = keyOf(scope, path)
      const meta: Meta = {
        key,
        scope,
        path,
        baseHash,
        owner: me,
        savedAt: Date.now(),
        bytes: text.length * 2,
      }
      const tx = db.transaction(['meta', 'texts'], 'readwrite')
      const metas = tx.objectStore('meta')
      const texts = tx.objectStore('texts')
      metas.put(meta)
      texts.put(text, key)
      const all = (await result(metas.getAll())) as Meta[]
      let total = all.reduce((sum, m) => sum + m.bytes, 0)
      const dropped: string[] = []
      for (const old of all.sort((a, b) => a.savedAt - b.savedAt)) {
        if (total <= limit) break
        metas.delete(old.key)
        texts.delete(old.key)
        total -= old.bytes
        dropped.push(old.path)
      }
      await finished(tx)
      return dropped
    },
    async delete(scope, path) {
      const tx = db.transaction(['meta', 'texts'], 'readwrite')
      tx.objectStore('meta').delete(keyOf(scope, path))
      tx.objectStore('texts').delete(keyOf(scope, path))
      await finished(tx)
    },
    async orphans(scope) {
      const alive = await liveOwners()
      const tx = db.transaction(['meta', 'texts'], 'readonly')
      const all = (await result(tx.objectStore('meta').getAll())) as Meta[]
      const mine = all
        .filter((m) => m.scope === scope && (m.owner === me || !alive?.(m.owner)))
        .sort((a, b) => a.savedAt - b.savedAt)
      const texts = await Promise.all(mine.map((m) => result(tx.objectStore('texts').get(m.key))))
      return mine.flatMap((m, i) => {
        const text = texts[i]
        return typeof text === 'string' ? [{ path: m.path, text, baseHash: m.baseHash }] : []
      })
    },
  }
}

/** A store in memory: for tests, and the shape of the real one. */
export function memoryBackupStore(
  limit = backupLimitBytes,
): BackupStore & { entries: Map<string, UnsavedText> } {
  const entries = new Map<string, UnsavedText>()
  return {
    entries,
    async put(scope, unsaved) {
      entries.delete(keyOf(scope, unsaved.path))
      entries.set(keyOf(scope, unsaved.path), { ...unsaved })
      const dropped: string[] = []
      let total = [...entries.values()].reduce((sum, u) => sum + u.text.length * 2, 0)
      for (const [key, old] of entries) {
        if (total <= limit) break
        entries.delete(key)
        total -= old.text.length * 2
        dropped.push(old.path)
      }
      return dropped
    },
    async delete(scope, path) {
      entries.delete(keyOf(scope, path))
    },
    async orphans(scope) {
      return [...entries].filter(([key]) => key.startsWith(`${scope}\n`)).map(([, u]) => ({ ...u }))
    },
  }
}

/** Where the browser denies storage: nothing to restore, and the first backup says why. */
export function unavailableBackupStore(why: unknown): BackupStore {
  const reason = why instanceof Error ? why : new Error(String(why))
  return {
    put: () => Promise.reject(reason),
    delete: async () => {},
    orphans: async () => [],
  }
}
