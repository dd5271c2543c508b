import { type BigIntStats, constants, type FSWatcher, watch } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import { basename, join, relative } from 'node:path'
import { EventType } from '../../../src/gen/filesystem_pb'
import { errnoCode, internal, messageOf, resourceExhausted } from '../errors'
import { byteOrder } from './byteOrder'
import { hasMoreDirsThan } from './treeSize'
import { isUploadTempName } from './uploadTempName'

// Watches a directory (optionally its whole tree) and reports envd-style events, where the
// runtime's native addon has no inotify (else inotifyWatcher.ts maps inotify's events as envd).
//
// Node's fs.watch on Linux is one inotify watch per call, but it only says 'rename' or
// 'change' for a name. So every watched directory keeps a cache of its entries' lstat
// (inode + birth time as identity, size, mtime, ctime, mode, owner) and each batch of
// notifications (all libuv read in one go) is classified by comparing the cache with a fresh
// lstat. What differs from envd's inotify mapping:
//  - A disappearance whose inode shows up under another watched name in the same batch is
//    RENAME (old name) + CREATE (new name), as inotify reports a move. A move out of the tree
//    cannot be told from a delete and is REMOVE (inotify: RENAME). On a filesystem without
//    birth times a delete plus a new file reusing the inode number can look like a move.
//  - Writes are coalesced per batch: one WRITE per name, not one per write(2).
//  - A file created and deleted within one batch is not reported at all.
//  - Attribute-only changes (mode, owner, xattrs) are CHMOD; `touch` on an existing file
//    changes mtime and is WRITE (inotify: CHMOD). A new empty file touched in the same batch
//    as its creation is CREATE + CHMOD, a new file with data CREATE + WRITE.
//  - With `recursive`, a new directory is watched and then scanned, and everything already in
//    it is reported as CREATE (envd's fsnotify fork misses files made before its watch).
//    A directory moved within the tree keeps its cache, so only real differences are reported.
//  - The watched directory itself: removed or replaced is REMOVE "." and the watch then stays
//    silent; a mode or owner change is CHMOD ".".
//  - Upload temporary files are never reported; an upload that replaces a file is WRITE (what
//    envd's in-place O_TRUNC gives), a new upload CREATE.
//  - A name equal to its directory's own base name can get a spurious WRITE or CHMOD, because
//    libuv reports the directory's own events under that name.

/** What the watcher keeps of one entry's lstat. */
interface Snapshot {
  dev: bigint
  ino: bigint
  /** Tells a renamed inode from a freed number reused by a new file (ext4 reuses at once). */
  birthtimeNs: bigint
  mode: number
  uid: bigint
  gid: bigint
  size: bigint
  mtimeNs: bigint
  ctimeNs: bigint
}

/** One classified change; `name` is relative to the watched directory ("." for itself). */
export interface WatchChange {
  name: string
  type: EventType
}

/** How a TreeWatcher watches and where its results go. */
export interface TreeWatcherOptions {
  recursive: boolean
  /** Receives each batch in order; the next batch waits for the returned promise. */
  onChanges(changes: WatchChange[]): void | Promise<void>
  /** A watch could not be kept up (e.g. the inotify watch limit); the watcher has stopped. */
  onError(error: Error): void
  /** Most directories it may watch (default maxWatchedDirs); past it, start fails or the watch stops. */
  maxDirs?: number
}

interface WatchedDir {
  /** Undefined while a moved subtree waits to be watched under its new path. */
  watcher: FSWatcher | undefined
  entries: Map<string, Snapshot>
}

interface Pending {
  dir: string
  name: string
  rename: boolean
  change: boolean
}

/** lstats run at once while scanning one directory. */
const statConcurrency = 64

/**
 * Most directories one watch may hold. A recursive watch of `/` would scan the whole system
 * (tens of thousands of directories, minutes of lstat) and take that many of the host's inotify
 * watches, which every sandbox shares; a project with its node_modules stays well below it.
 */
export const maxWatchedDirs = 10_000

function snapshotOf(st: BigIntStats): Snapshot {
  return {
    dev: st.dev,
    ino: st.ino,
    birthtimeNs: st.birthtimeNs,
    mode: Number(st.mode),
    uid: st.uid,
    gid: st.gid,
    size: st.size,
    mtimeNs: st.mtimeNs,
    ctimeNs: st.ctimeNs,
  }
}

async function snapshot(path: string): Promise<Snapshot | undefined> {
  try {
    return snapshotOf(await lstat(path, { bigint: true }))
  } catch {
    return undefined
  }
}

const isDir = (s: Snapshot) => (s.mode & constants.S_IFMT) === constants.S_IFDIR
const fileType = (s: Snapshot) => s.mode & constants.S_IFMT
const identity = (s: Snapshot) => `${s.dev}:${s.ino}:${s.birthtimeNs}:${fileType(s)}`
const sameObject = (a: Snapshot, b: Snapshot) => identity(a) === identity(b)
const attrsDiffer = (a: Snapshot, b: Snapshot) => a.mode !== b.mode || a.uid !== b.uid || a.gid !== b.gid
const contentDiffers = (a: Snapshot, b: Snapshot) => a.size !== b.size || a.mtimeNs !== b.mtimeNs

/** Watches `root` (a real, absolute directory path) with one inotify watch per directory. */
export class TreeWatcher {
  private readonly dirs = new Map<string, WatchedDir>()
  private pending = new Map<string, Pending>()
  private readonly resync = new Set<string>()
  private rootDirty = false
  private rootSnapshot: Snapshot | undefined
  private scheduled = false
  private flushing = false
  private closed = false

  constructor(
    private readonly root: string,
    private readonly options: TreeWatcherOptions,
  ) {}

  /** Registers the watches and records what is there; resolves once events can be caught. */
  async start(): Promise<void> {
    this.rootSnapshot = await snapshot(this.root)
    try {
      if (this.options.recursive && (await hasMoreDirsThan(this.root, this.maxDirs))) throw this.tooLarge()
      await this.syncDir(this.root, false, [])
    } catch (err) {
      this.close()
      throw err
    }
    if (!this.dirs.has(this.root)) throw internal(`error watching directory ${this.root}: it vanished`)
  }

  private get maxDirs(): number {
    return this.options.maxDirs ?? maxWatchedDirs
  }

  private tooLarge() {
    return resourceExhausted(
      `error watching directory ${this.root}: more than ${this.maxDirs} directories in the tree; watch a smaller one`,
    )
  }

  /** Stops every watch; no callback runs after this. */
  close(): void {
    this.closed = true
    for (const dir of this.dirs.values()) dir.watcher?.close()
    this.dirs.clear()
    this.pending.clear()
  }

  /** How many directories hold an inotify watch (for tests and diagnostics). */
  get watchCount(): number {
    return this.dirs.size
  }

  private watchDir(dir: string): FSWatcher | undefined {
    try {
      const watcher = watch(dir, { persistent: false }, (type, name) => this.onEvent(dir, type, name))
      watcher.on('error', (err) => {
        if (dir === this.root) return this.fail(err)
        // Watch it afresh on the next sync.
        const watched = this.dirs.get(dir)
        if (watched?.watcher !== watcher) return
        watcher.close()
        watched.watcher = undefined
        this.markResync(dir)
      })
      return watcher
    } catch (err) {
      const code = errnoCode(err)
      // Gone or replaced before we got to it: its parent's events tell the rest.
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
      throw internal(`error watching directory ${dir}: ${messageOf(err)}`)
    }
  }

  private onEvent(dir: string, type: string, name: string | Buffer | null): void {
    if (this.closed) return
    if (name === null) {
      this.markResync(dir)
      return
    }
    const entry = String(name)
    const key = `${dir}\0${entry}`
    const item = this.pending.get(key) ?? { dir, name: entry, rename: false, change: false }
    if (type === 'rename') item.rename = true
    else item.change = true
    // Map.set keeps the first position, so a batch is in first-seen order.
    this.pending.set(key, item)
    // libuv names the directory's own events after its base name.
    if (dir === this.root && entry === basename(this.root)) this.rootDirty = true
    this.schedule()
  }

  private markResync(dir: string): void {
    this.resync.add(dir)
    this.schedule()
  }

  private schedule(): void {
    if (this.scheduled || this.flushing || this.closed) return
    this.scheduled = true
    // setImmediate runs after the poll phase, so all notifications libuv read together
    // (a move's MOVED_FROM and MOVED_TO among them) land in one batch.
    setImmediate(() => void this.flush())
  }

  private async flush(): Promise<void> {
    this.scheduled = false
    if (this.closed || this.flushing) return
    this.flushing = true
    try {
      while (!this.closed && (this.pending.size > 0 || this.rootDirty || this.resync.size > 0)) {
        const batch = [...this.pending.values()]
        this.pending = new Map()
        const rootDirty = this.rootDirty
        this.rootDirty = false
        const resync = [...this.resync]
        this.resync.clear()
        const changes: WatchChange[] = []
        await this.processBatch(batch, changes)
        for (const dir of resync) if (this.dirs.has(dir)) await this.syncDir(dir, true, changes)
        if (rootDirty) await this.checkRoot(changes)
        if (changes.length > 0 && !this.closed) await this.options.onChanges(changes)
      }
    } catch (err) {
      this.fail(err)
    } finally {
      this.flushing = false
    }
  }

  private fail(err: unknown): void {
    if (this.closed) return
    this.close()
    this.options.onError(err instanceof Error ? err : new Error(String(err)))
  }

  private rel(path: string): string {
    return relative(this.root, path) || '.'
  }

  private async processBatch(batch: Pending[], out: WatchChange[]): Promise<void> {
    // Pass 1: what each name was and is, and which inodes appeared or disappeared.
    const items = await Promise.all(
      batch.map(async (p) => {
        const path = join(p.dir, p.name)
        const prev = this.dirs.get(p.dir)?.entries.get(p.name)
        return { ...p, path, prev, cur: await snapshot(path) }
      }),
    )
    type Item = (typeof items)[number]
    const appeared = new Map<string, Item>()
    const vanished = new Map<string, Item>()
    // Directories where an upload's temporary file came and went inside this batch, unseen:
    // a file replaced there is most likely that upload landing.
    const unseenUploads = new Set(items.filter((i) => !i.cur && isUploadTempName(i.name)).map((i) => i.dir))
    for (const item of items) {
      const { prev, cur } = item
      if (cur && (!prev || !sameObject(prev, cur))) appeared.set(identity(cur), item)
      if (prev && (!cur || !sameObject(prev, cur))) vanished.set(identity(prev), item)
    }

    // Pass 2: classify in first-seen order. A directory moved within the tree keeps its
    // watches until its destination takes them over; any not taken over are dropped after.
    const movedAway = new Set<string>()
    const takenOver = new Set<string>()
    for (const item of items) {
      const { prev, cur, path, name } = item
      const dir = this.dirs.get(item.dir)
      if (!dir || (!prev && !cur)) continue
      const hidden = isUploadTempName(name)
      const emit = (type: EventType) => {
        if (!hidden) out.push({ name: this.rel(path), type })
      }

      if (prev && !cur) {
        dir.entries.delete(name)
        const movedTo = appeared.get(identity(prev))
        emit(movedTo && movedTo !== item ? EventType.RENAME : EventType.REMOVE)
        if (isDir(prev)) {
          if (movedTo?.cur && isDir(movedTo.cur) && this.options.recursive) movedAway.add(path)
          else this.dropTree(path)
        }
        continue
      }
      if (!cur) continue
      dir.entries.set(name, cur)
      const movedFrom = vanished.get(identity(cur))
      const fromElsewhere = movedFrom !== undefined && movedFrom !== item
      const fromUpload = fromElsewhere ? isUploadTempName(movedFrom.name) : unseenUploads.has(item.dir)

      if (!prev || !sameObject(prev, cur)) {
        if (prev) {
          if (isDir(prev)) this.dropTree(path)
          const oldMovedTo = appeared.get(identity(prev))
          if (fromUpload) {
            emit(EventType.WRITE)
          } else {
            if (oldMovedTo && oldMovedTo !== item) emit(EventType.RENAME)
            else if (!fromElsewhere) emit(EventType.REMOVE)
            emit(EventType.CREATE)
          }
        } else {
          emit(EventType.CREATE)
          if (item.change && !fromElsewhere && !isDir(cur))
            emit(cur.size > 0n ? EventType.WRITE : EventType.CHMOD)
        }
        if (isDir(cur) && this.options.recursive) {
          if (fromElsewhere && movedFrom.prev && isDir(movedFrom.prev)) {
            this.moveTree(movedFrom.path, path)
            takenOver.add(movedFrom.path)
          }
          await this.syncDir(path, true, out)
        }
        continue
      }

      // Same object as before: attributes, content, or nothing visible.
      if (isDir(cur)) {
        if (item.change || attrsDiffer(prev, cur)) emit(EventType.CHMOD)
        continue
      }
      const content = contentDiffers(prev, cur)
      const attrs = attrsDiffer(prev, cur) || (!content && prev.ctimeNs !== cur.ctimeNs)
      if (attrs) emit(EventType.CHMOD)
      if (content || (item.change && !attrs)) emit(EventType.WRITE)
    }
    for (const path of movedAway) if (!takenOver.has(path)) this.dropTree(path)
  }

  /** The watched directory's own events: gone or replaced ends the watch, else maybe CHMOD. */
  private async checkRoot(out: WatchChange[]): Promise<void> {
    const prev = this.rootSnapshot
    const cur = await snapshot(this.root)
    this.rootSnapshot = cur
    if (!prev) return
    if (!cur || !sameObject(prev, cur)) {
      out.push({ name: '.', type: EventType.REMOVE })
      for (const dir of this.dirs.values()) dir.watcher?.close()
      this.dirs.clear()
      this.pending.clear()
      return
    }
    if (attrsDiffer(prev, cur)) out.push({ name: '.', type: EventType.CHMOD })
  }

  /**
   * Watches `dir` (if not yet) and brings its cache up to date with a fresh read, reporting
   * the differences when `emit` (CREATE for new names, recursively into new directories).
   * The watch is added before the read, so nothing made in between is lost.
   */
  private async syncDir(dir: string, emit: boolean, out: WatchChange[]): Promise<void> {
    let watched = this.dirs.get(dir)
    if (!watched?.watcher) {
      if (!watched && this.dirs.size >= this.maxDirs) throw this.tooLarge()
      const watcher = this.watchDir(dir)
      if (!watcher) {
        this.dropTree(dir)
        return
      }
      watched = { watcher, entries: watched?.entries ?? new Map() }
      this.dirs.set(dir, watched)
    }
    let names: string[]
    try {
      names = (await readdir(dir)).sort(byteOrder)
    } catch (err) {
      const code = errnoCode(err)
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        this.dropTree(dir)
        return
      }
      throw internal(`error reading directory ${dir}: ${messageOf(err)}`)
    }
    const current: (Snapshot | undefined)[] = []
    for (let i = 0; i < names.length; i += statConcurrency) {
      const chunk = names.slice(i, i + statConcurrency)
      current.push(...(await Promise.all(chunk.map((name) => snapshot(join(dir, name))))))
    }
    if (this.closed || this.dirs.get(dir) !== watched) return
    const entries = watched.entries
    const seen = new Set<string>()
    for (const [i, name] of names.entries()) {
      const cur = current[i]
      if (!cur) continue
      seen.add(name)
      const path = join(dir, name)
      const prev = entries.get(name)
      entries.set(name, cur)
      const report = emit && !isUploadTempName(name)
      if (!prev || !sameObject(prev, cur)) {
        if (prev && isDir(prev)) this.dropTree(path)
        if (report) out.push({ name: this.rel(path), type: EventType.CREATE })
        // Written before its folder was watched: the write is reported as inotify would have.
        if (report && !isDir(cur) && cur.size > 0n) out.push({ name: this.rel(path), type: EventType.WRITE })
      } else if (report && !isDir(cur)) {
        if (attrsDiffer(prev, cur)) out.push({ name: this.rel(path), type: EventType.CHMOD })
        if (contentDiffers(prev, cur)) out.push({ name: this.rel(path), type: EventType.WRITE })
      }
      if (isDir(cur) && this.options.recursive) await this.syncDir(path, emit, out)
    }
    for (const [name, prev] of entries) {
      if (seen.has(name)) continue
      entries.delete(name)
      const path = join(dir, name)
      if (emit && !isUploadTempName(name)) out.push({ name: this.rel(path), type: EventType.REMOVE })
      if (isDir(prev)) this.dropTree(path)
    }
  }

  /** Stops watching `path` and everything below it. */
  private dropTree(path: string): void {
    const prefix = `${path}/`
    for (const [dir, watched] of this.dirs) {
      if (dir !== path && !dir.startsWith(prefix)) continue
      watched.watcher?.close()
      this.dirs.delete(dir)
    }
  }

  /** Re-keys a moved subtree's caches under its new path; syncDir then re-adds the watches. */
  private moveTree(from: string, to: string): void {
    if (from === to || !this.dirs.has(from)) return
    const prefix = `${from}/`
    const moved: [string, WatchedDir][] = []
    for (const [dir, watched] of this.dirs) {
      if (dir !== from && !dir.startsWith(prefix)) continue
      watched.watcher?.close()
      this.dirs.delete(dir)
      moved.push([to + dir.slice(from.length), { watcher: undefined, entries: watched.entries }])
    }
    this.dropTree(to)
    for (const [dir, watched] of moved) this.dirs.set(dir, watched)
  }
}
