import { Subscribers } from '../../common/Subscribers'
import type { FileWatch, WatchNotice } from '../../sandbox/fileWatch'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { isNotFound } from '../../sandbox/sandboxError'
import { type EntryInfo, FileType, type SandboxFiles } from '../../sandbox/sandboxFiles'
import type { NoticeSink } from '../../ui/notifications'
import { saveToComputer } from '../../ui/saveToComputer'
import { contentHash } from './contentHash'
import { decodeText, encodeText } from './decodeText'
import { type DiskVersion, sameVersion, versionOf } from './diskVersion'
import { externalRenames, type Rename } from './externalRenames'
import { fileTier } from './fileLimits'
import { loadMonaco } from './loadMonaco'
import { baseName, isAtOrUnder, movedPath } from './movedPath'
import type { TextBuffer } from './TextBuffer'

/** How an open file is shown: its text, or why not. */
export type DocumentView = 'loading' | 'text' | 'binary' | 'download-only' | 'error'

/** The disk and the buffer disagree and the user has to choose. */
export interface Conflict {
  /** 'changed': the watch saw the disk change under unsaved edits; 'save': a save found it changed. */
  cause: 'changed' | 'save'
  /** The disk's text; undefined when the disk now holds something that is not text to compare. */
  diskText: string | undefined
}

/** One open file as the view renders it. */
export interface EditorDocument {
  id: string
  path: string
  name: string
  view: DocumentView
  /** Bytes on disk when last seen. */
  size: number | undefined
  /** Over 5 MB: opened without language features. */
  reduced: boolean
  dirty: boolean
  saving: boolean
  /** Deleted or moved away on disk; the text is kept until the tab is closed. */
  deletedOnDisk: boolean
  conflict: Conflict | undefined
  comparing: boolean
  /** Why it could not be opened, in the server's words. */
  error: string | undefined
  buffer: TextBuffer | undefined
  /** Why it may not be edited (a read-only embed, a lab's protected file), if it may not. */
  readOnly: string | undefined
}

/** Says why a path may not be edited, or undefined when it may. */
export type ReadOnlyRule = (path: string) => string | undefined

/** What the editor area renders: replaced, never mutated, on every change. */
export interface EditorSnapshot {
  documents: EditorDocument[]
  activeId: string | undefined
  /** A document whose close waits for the user's answer (it has unsaved changes). */
  closing: string | undefined
  quickOpen: boolean
  /** Bumped when an opened file should take the keyboard focus. */
  focusRequest: number
}

interface Doc {
  id: string
  path: string
  view: DocumentView
  size: number | undefined
  reduced: boolean
  saving: boolean
  deletedOnDisk: boolean
  comparing: boolean
  error: string | undefined
  buffer: TextBuffer | undefined
  stopDirty: (() => void) | undefined
  /** What the disk held when the buffer was last in step with it. */
  version: DiskVersion | undefined
  hash: string | undefined
  conflict: (Conflict & { version: DiskVersion; hash: string }) | undefined
  /** Loads, checks and saves of one file run one after the other. */
  queue: Promise<void>
  checkQueued: boolean
  /**
   * Whether the editor takes the keyboard when the next load ends: set by an open or a button
   * that asks for it, cleared by every load, so a reload the watch starts never takes it.
   */
  focusOnLoad: boolean
}

/** What the disk holds compared with what the buffer was loaded from. */
type DiskState =
  | { kind: 'same' }
  | { kind: 'missing' }
  | { kind: 'changed'; text: string | undefined; version: DiskVersion; hash: string; tooBig: boolean }

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/**
 * The open files of one session: tabs, the active one, dirty state, and keeping each buffer and
 * its file on disk in step without ever losing an edit. Files are read and written through the
 * runtime's /files; Stat (size and modification time) plus a hash of the bytes tell whether the
 * disk still holds what was loaded. The shared FileWatch tells when to look: a clean buffer
 * reloads quietly, a dirty one gets a conflict to resolve, a rename is followed. Saving checks the
 * disk first and asks instead of overwriting a change it has not seen.
 */
export class EditorManager {
  private docs: Doc[] = []
  private activeId: string | undefined
  private closing: string | undefined
  private quickOpen = false
  /** Requests for the editor to take the keyboard, and the last one it took (or an open cancelled). */
  private focusRequest = 0
  private focusTaken = 0
  private counter = 0
  private snapshot: EditorSnapshot = {
    documents: [],
    activeId: undefined,
    closing: undefined,
    quickOpen: false,
    focusRequest: 0,
  }
  private readonly subscribers = new Subscribers()
  private readonly readOnlyRules = new Set<ReadOnlyRule>()
  private readonly savedListeners = new Set<(path: string) => void>()
  private readonly stopWatch: () => void
  private disposed = false

  constructor(
    private readonly session: SandboxSession,
    watch: FileWatch,
    private readonly notices: NoticeSink,
  ) {
    this.stopWatch = watch.subscribe(this.onNotice)
    window.addEventListener('beforeunload', this.onBeforeUnload)
    document.addEventListener('visibilitychange', this.onVisible)
  }

  subscribe = this.subscribers.add

  getSnapshot = (): EditorSnapshot => this.snapshot

  /** Makes the paths `rule` names read-only; returns a function that lifts it. */
  addReadOnlyRule(rule: ReadOnlyRule): () => void {
    this.readOnlyRules.add(rule)
    this.emit()
    return () => {
      this.readOnlyRules.delete(rule)
      this.emit()
    }
  }

  /** Why `path` may not be edited, or undefined. */
  readOnlyReason(path: string): string | undefined {
    for (const rule of this.readOnlyRules) {
      const reason = rule(path)
      if (reason) return reason
    }
    return undefined
  }

  /**
   * Whether the editor should take the keyboard now: true once for each request made since the
   * last it took. The editor asks whenever it could (shown, with a buffer), so a request made
   * before it was ready is not lost, and one already taken is not taken again.
   */
  takeFocusRequest(): boolean {
    if (this.focusTaken === this.focusRequest) return false
    this.focusTaken = this.focusRequest
    return true
  }

  /** Listens to saves that reached the disk; returns a function that stops listening. */
  onSaved(listener: (path: string) => void): () => void {
    this.savedListeners.add(listener)
    return () => this.savedListeners.delete(listener)
  }

  /**
   * Opens `path` (absolute, or relative to the home folder) in a tab, or shows its tab if open.
   * With `focus: false` (a click in the explorer) the keyboard stays where it is, and a focus
   * still pending from an earlier open is dropped: the user has moved on.
   */
  open(path: string, { focus = true }: { focus?: boolean } = {}): Promise<void> {
    if (!focus) this.focusTaken = this.focusRequest
    const existing = this.docs.find((d) => d.path === path)
    if (existing) {
      this.activeId = existing.id
      if (focus) this.focusRequest++
      else existing.focusOnLoad = false
      this.emit()
      return existing.queue
    }
    const doc: Doc = {
      id: `editor-${++this.counter}`,
      path,
      view: 'loading',
      size: undefined,
      reduced: false,
      saving: false,
      deletedOnDisk: false,
      comparing: false,
      error: undefined,
      buffer: undefined,
      stopDirty: undefined,
      version: undefined,
      hash: undefined,
      conflict: undefined,
      queue: Promise.resolve(),
      checkQueued: false,
      focusOnLoad: focus,
    }
    this.docs.push(doc)
    this.activeId = doc.id
    this.emit()
    return this.enqueue(doc, () => this.load(doc))
  }

  /** Shows a tab, and looks at its file on disk (the watch covers only the home folder). */
  activate(id: string): void {
    const doc = this.find(id)
    if (!doc) return
    this.activeId = id
    this.emit()
    this.scheduleCheck(doc)
  }

  /** Shows the next (1) or previous (-1) tab. */
  cycle(delta: number): void {
    const index = this.docs.findIndex((d) => d.id === this.activeId)
    const next = this.docs[(index + delta + this.docs.length) % this.docs.length]
    if (next) this.activate(next.id)
  }

  /** Saves a file (the active one by default) after checking the disk still holds what was loaded. */
  save(id = this.activeId): Promise<void> {
    const doc = id ? this.find(id) : undefined
    if (!doc?.buffer || doc.view !== 'text') return Promise.resolve()
    if (this.session.getSnapshot().state.kind !== 'running') {
      this.notify(`${doc.path} was not saved: the sandbox is not running, so the editor is read-only`)
      return Promise.resolve()
    }
    const readOnly = this.readOnlyReason(doc.path)
    if (readOnly) {
      this.notify(`${doc.path} was not saved: ${readOnly}`)
      return Promise.resolve()
    }
    return this.enqueue(doc, () => this.write(doc))
  }

  /** Closes a tab, or asks first when it has unsaved changes. */
  requestClose(id = this.activeId): void {
    const doc = id ? this.find(id) : undefined
    if (!doc) return
    if (doc.buffer?.dirty) {
      this.activeId = doc.id
      this.closing = doc.id
      this.emit()
    } else {
      this.close(doc.id)
    }
  }

  /** The answer to "save before closing?". */
  async answerClose(answer: 'save' | 'discard' | 'cancel'): Promise<void> {
    const doc = this.closing ? this.find(this.closing) : undefined
    this.closing = undefined
    this.emit()
    if (!doc || answer === 'cancel') return
    if (answer === 'save') {
      await this.save(doc.id)
      // A failed save or a conflict keeps the tab, with its banner or notice saying why.
      if (doc.buffer?.dirty) return
    }
    this.close(doc.id)
  }

  /** Keep mine: the buffer wins; the disk's current version becomes what a save may replace. */
  keepMine(id: string): Promise<void> {
    const doc = this.find(id)
    const conflict = doc?.conflict
    if (!doc || !conflict) return Promise.resolve()
    this.settleConflict(doc, conflict)
    // After a refused save the user asked for a save: do it now.
    return conflict.cause === 'save' ? this.save(id) : Promise.resolve()
  }

  /** Load disk version: the buffer takes the disk's text (one undo step brings the user's back). */
  loadDiskVersion(id: string): Promise<void> {
    const doc = this.find(id)
    const conflict = doc?.conflict
    if (!doc || !conflict) return Promise.resolve()
    if (conflict.diskText === undefined || !doc.buffer) {
      doc.conflict = undefined
      doc.focusOnLoad = true
      return this.enqueue(doc, () => this.load(doc))
    }
    doc.buffer.reload(conflict.diskText)
    this.settleConflict(doc, conflict)
    return Promise.resolve()
  }

  /** Shows or hides the side-by-side comparison of the disk's text and the buffer. */
  compare(id: string, on: boolean): void {
    const doc = this.find(id)
    if (!doc) return
    doc.comparing = on && doc.conflict?.diskText !== undefined
    if (!doc.comparing) this.focusRequest++
    this.emit()
  }

  /** Saves a binary or too-big file to the user's computer. */
  download(id: string): Promise<void> {
    const doc = this.find(id)
    if (!doc) return Promise.resolve()
    return this.report(`Downloading ${doc.path} failed`, async () =>
      saveToComputer(await this.files.read(doc.path), baseName(doc.path)),
    )
  }

  /** Opens `path` again from disk, after an error. */
  retry(id: string): Promise<void> {
    const doc = this.find(id)
    if (!doc) return Promise.resolve()
    doc.focusOnLoad = true
    return this.enqueue(doc, () => this.load(doc))
  }

  /** The explorer renamed or moved `from` (a file or a folder): open files under it follow. */
  renamed(from: string, to: string): void {
    const moved: Doc[] = []
    for (const doc of this.docs) {
      const path = movedPath(doc.path, from, to)
      if (path === undefined) continue
      doc.path = path
      doc.deletedOnDisk = false
      doc.buffer?.renamed(path)
      moved.push(doc)
    }
    if (moved.length === 0) return
    this.emit()
    for (const doc of moved) this.scheduleCheck(doc)
  }

  /** The explorer deleted `path` (a file or a folder): clean tabs under it close, dirty ones stay. */
  removed(path: string): void {
    for (const doc of [...this.docs]) {
      if (!isAtOrUnder(doc.path, path)) continue
      if (doc.buffer?.dirty) doc.deletedOnDisk = true
      else this.close(doc.id)
    }
    this.emit()
  }

  /** Some open file has changes that are not on disk. */
  hasUnsaved(): boolean {
    return this.docs.some((d) => d.buffer?.dirty)
  }

  /** Shows or hides the "open a file by path" dialog. */
  setQuickOpen(open: boolean): void {
    this.quickOpen = open
    this.emit()
  }

  dispose(): void {
    this.disposed = true
    this.stopWatch()
    window.removeEventListener('beforeunload', this.onBeforeUnload)
    document.removeEventListener('visibilitychange', this.onVisible)
    for (const doc of this.docs) this.release(doc)
    this.docs = []
    this.subscribers.clear()
  }

  private readonly onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (!this.hasUnsaved()) return
    // The browser shows its own "leave site?" question; the text is not used any more.
    event.preventDefault()
    event.returnValue = ''
  }

  /** Back to the tab: the active file may have changed where the watch does not look. */
  private readonly onVisible = () => {
    const doc = this.activeId ? this.find(this.activeId) : undefined
    if (doc && document.visibilityState === 'visible') this.scheduleCheck(doc)
  }

  private readonly onNotice = (notice: WatchNotice) => {
    if (notice.kind === 'resync') {
      for (const doc of this.docs) this.scheduleCheck(doc)
      return
    }
    const { files, folders } = externalRenames(
      notice.changes,
      this.docs.map((d) => ({ path: d.path, version: d.version })),
    )
    for (const rename of files) this.renamed(rename.from, rename.to)
    const touched = new Set<Doc>()
    for (const change of notice.changes) {
      for (const doc of this.docs) {
        // Files under a folder move wait for followFolder, instead of showing as deleted meanwhile.
        if (folders.some((f) => isAtOrUnder(doc.path, f.from))) continue
        if (isAtOrUnder(doc.path, change.path)) touched.add(doc)
      }
    }
    for (const doc of touched) this.scheduleCheck(doc)
    for (const folder of folders) void this.followFolder(folder)
  }

  /** Follows a folder move the watch suggests, once Stat finds every open file under it unchanged there. */
  private async followFolder({ from, to }: Rename): Promise<void> {
    const under = this.docs.filter((d) => isAtOrUnder(d.path, from))
    const found = await Promise.all(
      under.map(async (doc) => {
        const target = movedPath(doc.path, from, to)
        if (target === undefined) return false
        try {
          return sameVersion(versionOf(await this.stat(target)), doc.version)
        } catch {
          return false
        }
      }),
    )
    if (found.every(Boolean)) this.renamed(from, to)
    else for (const doc of under) this.scheduleCheck(doc)
  }

  private async load(doc: Doc): Promise<void> {
    doc.view = 'loading'
    doc.error = undefined
    this.emit()
    try {
      const entry = await this.stat(doc.path)
      if (entry.type === FileType.DIRECTORY) throw new Error('it is a folder')
      const same = this.docs.find((d) => d !== doc && d.path === entry.path)
      if (same) {
        // Opened by another spelling of a path already open (relative, `~`): show that tab instead.
        this.close(doc.id)
        this.activeId = same.id
        this.emit()
        return
      }
      doc.path = entry.path
      doc.size = Number(entry.size)
      doc.version = versionOf(entry)
      this.release(doc)
      const tier = fileTier(doc.size)
      if (tier === 'download-only') {
        doc.view = 'download-only'
        return
      }
      const bytes = await this.files.read(doc.path)
      doc.hash = contentHash(bytes)
      doc.size = bytes.length
      const text = decodeText(bytes)
      if (text === undefined) {
        doc.view = 'binary'
        return
      }
      const { createTextBuffer } = await loadMonaco()
      if (!this.docs.includes(doc)) return
      doc.reduced = tier === 'reduced'
      doc.buffer = createTextBuffer(text, doc.path, doc.reduced)
      doc.stopDirty = doc.buffer.onDirtyChange(() => this.emit())
      doc.view = 'text'
      if (doc.focusOnLoad && this.activeId === doc.id) this.focusRequest++
    } catch (err) {
      doc.view = 'error'
      doc.error = errorMessage(err)
    } finally {
      doc.focusOnLoad = false
      this.emit()
    }
  }

  /** Looks at the disk after the watch (or a resync) said the file may have changed. */
  private async check(doc: Doc): Promise<void> {
    if (this.session.getSnapshot().state.kind !== 'running' || !this.docs.includes(doc)) return
    if (doc.view === 'loading') return
    if (doc.view !== 'text' || !doc.buffer) {
      // Nothing unsaved here: show whatever the disk holds now.
      if (doc.view === 'error') return
      try {
        if (sameVersion(versionOf(await this.stat(doc.path)), doc.version)) return
      } catch (err) {
        if (!isNotFound(err)) throw err
        doc.deletedOnDisk = true
        this.emit()
        return
      }
      doc.deletedOnDisk = false
      await this.load(doc)
      return
    }
    let disk: DiskState
    try {
      disk = await this.diskState(doc)
    } catch (err) {
      this.notify(`Checking ${doc.path} on disk failed: ${errorMessage(err)}`)
      return
    }
    if (disk.kind === 'missing') {
      doc.deletedOnDisk = true
    } else if (disk.kind === 'same') {
      doc.deletedOnDisk = false
      doc.conflict = undefined
      doc.comparing = false
    } else {
      doc.deletedOnDisk = false
      if (!doc.buffer.dirty && !doc.conflict && disk.text !== undefined && !disk.tooBig) {
        // Clean: take the disk's text quietly; the cursor stays where it was.
        doc.buffer.reload(disk.text)
        doc.version = disk.version
        doc.hash = disk.hash
      } else if (!doc.buffer.dirty && !doc.conflict) {
        await this.load(doc)
        return
      } else {
        doc.conflict = {
          cause: doc.conflict?.cause ?? 'changed',
          diskText: disk.text,
          version: disk.version,
          hash: disk.hash,
        }
        if (disk.text === undefined) doc.comparing = false
      }
    }
    this.emit()
  }

  /** Writes the buffer, unless the disk changed since it was loaded: then it asks (a conflict). */
  private async write(doc: Doc): Promise<void> {
    const buffer = doc.buffer
    if (!buffer || !this.docs.includes(doc)) return
    if (!buffer.dirty && !doc.deletedOnDisk) return
    if (doc.conflict) {
      doc.conflict.cause = 'save'
      this.emit()
      return
    }
    doc.saving = true
    this.emit()
    try {
      const disk = await this.diskState(doc)
      if (disk.kind === 'changed') {
        doc.conflict = { cause: 'save', diskText: disk.text, version: disk.version, hash: disk.hash }
        return
      }
      const versionId = buffer.versionId()
      const bytes = encodeText(buffer.getText())
      await this.files.write(doc.path, bytes)
      // The stat right after our own write is taken as ours: a write by someone else in those
      // few milliseconds would be missed (the runtime has no compare-and-swap upload).
      const entry = await this.stat(doc.path)
      doc.version = versionOf(entry)
      doc.hash = contentHash(bytes)
      doc.size = bytes.length
      doc.deletedOnDisk = false
      buffer.markSaved(versionId)
      for (const listener of this.savedListeners) listener(doc.path)
    } catch (err) {
      this.notify(`Saving ${doc.path} failed: ${errorMessage(err)}`)
    } finally {
      doc.saving = false
      this.emit()
    }
  }

  /** Compares the disk with what the buffer was loaded from: Stat first, the bytes only if it moved. */
  private async diskState(doc: Doc): Promise<DiskState> {
    let entry: EntryInfo
    try {
      entry = await this.stat(doc.path)
    } catch (err) {
      if (isNotFound(err)) return { kind: 'missing' }
      throw err
    }
    if (entry.type === FileType.DIRECTORY) return { kind: 'missing' }
    const version = versionOf(entry)
    if (sameVersion(version, doc.version)) return { kind: 'same' }
    if (fileTier(Number(entry.size)) === 'download-only') {
      return { kind: 'changed', text: undefined, version, hash: `size:${entry.size}`, tooBig: true }
    }
    const bytes = await this.files.read(doc.path)
    const hash = contentHash(bytes)
    if (hash === doc.hash) {
      // Touched, or written with the same bytes: not a change (no false conflict).
      doc.version = version
      return { kind: 'same' }
    }
    return { kind: 'changed', text: decodeText(bytes), version, hash, tooBig: false }
  }

  private scheduleCheck(doc: Doc): void {
    if (doc.checkQueued) return
    doc.checkQueued = true
    void this.enqueue(doc, () => {
      doc.checkQueued = false
      return this.check(doc)
    })
  }

  private enqueue(doc: Doc, task: () => Promise<void>): Promise<void> {
    const run = doc.queue.then(task)
    doc.queue = run.catch((err: unknown) => this.notify(`${doc.path}: ${errorMessage(err)}`))
    return doc.queue
  }

  private close(id: string): void {
    const index = this.docs.findIndex((d) => d.id === id)
    const doc = this.docs[index]
    if (!doc) return
    this.release(doc)
    this.docs.splice(index, 1)
    if (this.closing === id) this.closing = undefined
    if (this.activeId === id) this.activeId = (this.docs[index] ?? this.docs[index - 1])?.id
    this.emit()
  }

  private release(doc: Doc): void {
    doc.stopDirty?.()
    doc.stopDirty = undefined
    doc.buffer?.dispose()
    doc.buffer = undefined
  }

  private stat(path: string): Promise<EntryInfo> {
    return this.files.stat(path)
  }

  private get files(): SandboxFiles {
    return this.session.files
  }

  /** Ends a conflict either way: the disk's version is now what a save may replace; focus returns. */
  private settleConflict(doc: Doc, conflict: NonNullable<Doc['conflict']>): void {
    doc.version = conflict.version
    doc.hash = conflict.hash
    doc.conflict = undefined
    doc.comparing = false
    this.focusRequest++
    this.emit()
  }

  private find(id: string): Doc | undefined {
    return this.docs.find((d) => d.id === id)
  }

  private async report(what: string, action: () => Promise<void>): Promise<void> {
    try {
      await action()
    } catch (err) {
      this.notify(`${what}: ${errorMessage(err)}`)
    }
  }

  private notify(text: string): void {
    if (!this.disposed) this.notices.push('error', text)
  }

  private emit(): void {
    if (this.disposed) return
    this.snapshot = {
      documents: this.docs.map((d) => ({
        id: d.id,
        path: d.path,
        name: baseName(d.path),
        view: d.view,
        size: d.size,
        reduced: d.reduced,
        dirty: !!d.buffer?.dirty,
        saving: d.saving,
        deletedOnDisk: d.deletedOnDisk,
        conflict: d.conflict && { cause: d.conflict.cause, diskText: d.conflict.diskText },
        comparing: d.comparing,
        error: d.error,
        buffer: d.buffer,
        readOnly: this.readOnlyReason(d.path),
      })),
      activeId: this.activeId,
      closing: this.closing,
      quickOpen: this.quickOpen,
      focusRequest: this.focusRequest,
    }
    this.subscribers.notify()
  }
}
