import type { Disposable } from '../../../common/lifecycle'
import type { NoticeSink } from '../../../ui/notifications'
import type { EditorManager } from '../EditorManager'
import type { UnsavedText } from '../OpenDocument'
import type { TextBuffer } from '../TextBuffer'
import type { BackupStore } from './backupStore'

/** How long after a change its backup is written: well within a second of typing. */
export const backupDelayMs = 400

interface Tracked {
  buffer: TextBuffer
  stopChange: () => void
  dirty: boolean
  path: string
  /** The path its backup is kept under, if one is. */
  backedUp: string | undefined
}

/** The page is hidden (a phone may discard it without another word) or unloading. */
function pageLeaving(flush: () => void): () => void {
  const hidden = () => {
    if (document.visibilityState === 'hidden') flush()
  }
  document.addEventListener('visibilitychange', hidden)
  window.addEventListener('pagehide', flush)
  return () => {
    document.removeEventListener('visibilitychange', hidden)
    window.removeEventListener('pagehide', flush)
  }
}

/**
 * Hot exit: the unsaved text of every open file is kept in the browser, so a tab that dies without
 * asking (a crash, a phone discarding it, a flat battery; `beforeunload` fires for none of these)
 * loses nothing. A backup is written soon after each change and at once when the page is hidden,
 * and removed when the file is saved, reverted or its changes discarded; closing the workspace
 * keeps it. When the workspace opens again, the backups no living tab keeps reopen as unsaved
 * files (`EditorManager.restore`), offering the disk's text beside them where the disk changed.
 */
export class HotExit implements Disposable {
  private readonly tracked = new Map<string, Tracked>()
  private readonly pending = new Set<string>()
  /** Paths being restored: their backups are theirs to replace or remove. */
  private readonly restoring = new Set<string>()
  private timer: ReturnType<typeof setTimeout> | undefined
  private writes: Promise<void> = Promise.resolve()
  private failed = false
  private disposed = false
  private readonly stopEditor: () => void
  private readonly stopLeaving: () => void

  constructor(
    private readonly editor: EditorManager,
    private readonly store: BackupStore,
    private readonly scope: string,
    private readonly notices: NoticeSink,
    /** Calls its argument when the page may be going (hidden, or unloading); returns how to stop. */
    whenLeaving: (flush: () => void) => () => void = pageLeaving,
  ) {
    this.stopEditor = editor.subscribe(() => this.follow())
    this.follow()
    this.stopLeaving = whenLeaving(this.flush)
  }

  /** Reopens what an earlier page left unsaved; resolves once the files are open. */
  async restore(): Promise<void> {
    let backups: Awaited<ReturnType<BackupStore['orphans']>>
    try {
      backups = await this.store.orphans(this.scope)
    } catch (err) {
      this.fail(err)
      return
    }
    if (this.disposed || backups.length === 0) return
    for (const backup of backups) this.restoring.add(backup.path)
    const restored = await this.editor.restore(backups)
    if (restored.length === 0) return
    const files = restored.length === 1 ? restored[0] : `${restored.length} files`
    this.notices.push(
      'info',
      `Restored unsaved changes to ${files}: this browser kept them when the page closed before they were saved.`,
    )
  }

  /** Writes every backup due now (the page is going, or hidden and maybe never shown again). */
  readonly flush = (): void => {
    clearTimeout(this.timer)
    this.timer = undefined
    for (const id of this.pending) {
      const t = this.tracked.get(id)
      // The text as of now: what is written is what the page held when it was asked for.
      if (t) {
        const unsaved = this.editor.unsavedText(id)
        this.writes = this.writes.then(() => this.write(t, unsaved))
      }
    }
    this.pending.clear()
  }

  /** Settles once every backup asked for so far is written. */
  get settled(): Promise<void> {
    this.flush()
    return this.writes
  }

  dispose(): void {
    this.flush()
    this.disposed = true
    this.stopEditor()
    this.stopLeaving()
    for (const t of this.tracked.values()) t.stopChange()
    this.tracked.clear()
  }

  /** Follows the editor's documents: new buffers, flips of dirty, renames, closes. */
  private follow(): void {
    if (this.disposed) return
    const open = new Set<string>()
    for (const doc of this.editor.getSnapshot().documents) {
      const buffer = doc.buffer
      if (!buffer) continue
      open.add(doc.id)
      let t = this.tracked.get(doc.id)
      if (t?.buffer !== buffer) {
        t?.stopChange()
        const id = doc.id
        t = {
          buffer,
          stopChange: buffer.onChange(() => this.schedule(id)),
          dirty: !doc.dirty,
          path: doc.path,
          // A restored file's backup is its own to replace or remove.
          backedUp: t?.backedUp ?? (this.restoring.delete(doc.path) ? doc.path : undefined),
        }
        this.tracked.set(doc.id, t)
      }
      if (t.dirty !== doc.dirty || t.path !== doc.path) {
        t.dirty = doc.dirty
        t.path = doc.path
        this.schedule(doc.id)
      }
    }
    for (const [id, t] of this.tracked) {
      if (open.has(id)) continue
      // Closed: with unsaved changes only when the user chose to discard them.
      t.stopChange()
      this.tracked.delete(id)
      this.pending.delete(id)
      const path = t.backedUp
      if (path) this.writes = this.writes.then(() => this.remove(path))
    }
  }

  private schedule(id: string): void {
    this.pending.add(id)
    this.timer ??= setTimeout(this.flush, backupDelayMs)
  }

  private async write(t: Tracked, unsaved: UnsavedText | undefined): Promise<void> {
    if (this.failed) return
    const stale = t.backedUp !== undefined && t.backedUp !== unsaved?.path ? t.backedUp : undefined
    try {
      if (unsaved) {
        t.backedUp = unsaved.path
        const dropped = await this.store.put(this.scope, unsaved)
        if (dropped.length > 0) this.tooMuch(dropped, unsaved.path)
      } else {
        t.backedUp = undefined
      }
      if (stale) await this.store.delete(this.scope, stale)
    } catch (err) {
      this.fail(err)
    }
  }

  private async remove(path: string): Promise<void> {
    try {
      await this.store.delete(this.scope, path)
    } catch (err) {
      this.fail(err)
    }
  }

  private tooMuch(dropped: string[], writing: string): void {
    const own = dropped.includes(writing)
    const others = dropped.filter((p) => p !== writing)
    if (own) {
      const t = [...this.tracked.values()].find((x) => x.backedUp === writing)
      if (t) t.backedUp = undefined
    }
    this.notices.push(
      'error',
      own
        ? `Unsaved changes to ${writing} are too big to keep in this browser (50 MB in all): save them to keep them.`
        : `Backups of unsaved changes reached 50 MB in this browser: the oldest (${others.join(', ')}) were dropped.`,
    )
  }

  /** Storage denied (a third-party iframe, a private window): said once, and backups stop. */
  private fail(err: unknown): void {
    if (this.failed || this.disposed) return
    this.failed = true
    const why = err instanceof Error ? err.message : String(err)
    this.notices.push(
      'error',
      `Unsaved changes are not kept in this browser (${why}): if this page closes, what is not saved is lost.`,
    )
  }
}
