import { DisposableStore, toDisposable } from '../../common/lifecycle'
import { Subscribers } from '../../common/Subscribers'
import { type Collaboration, maxSharedChars } from '../../sandbox/collab/collaboration'
import type { WatchNotice } from '../../sandbox/fileWatch'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import type { NoticeSink } from '../../ui/notifications'
import { saveSandboxFile } from '../../ui/saveToComputer'
import { followWatch } from './followWatch'
import { loadMonaco } from './loadMonaco'
import { baseName, isAtOrUnder, movedPath } from './movedPath'
import {
  type BufferFactory,
  type DocumentHost,
  type EditorDocument,
  errorMessage,
  OpenDocument,
  type UnsavedText,
} from './OpenDocument'
import type { TextBuffer } from './TextBuffer'

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
  /** A place to show in a file (a definition, a problem): the editor selects it once. */
  reveal: Reveal | undefined
  /** The sandbox's language servers stand behind the editor (so a banner can say where they do not). */
  codeIntelligence: boolean
  /** Open files shown beside another version of themselves (git's index or HEAD), by document id. */
  comparisons: ReadonlyMap<string, Comparison>
}

/** Another version of a file to show beside its buffer: its text and what it is ("Index", "HEAD"). */
export interface Comparison {
  text: string
  label: string
}

/** A place in a file, in the editor's terms (lines and columns from 1). */
export interface EditorRange {
  startLine: number
  startColumn: number
  endLine: number
  endColumn: number
}

/** A request to show a range of one open document; `seq` tells one request from the next. */
export interface Reveal {
  documentId: string
  range: EditorRange
  seq: number
}

/** What the editor uses of a session: its files, and whether it runs. */
export type EditorSession = Pick<SandboxSession, 'files' | 'getSnapshot'>

/** Where the editor's changes come from besides the user. */
export interface EditorSources {
  watch: { subscribe(listener: (notice: WatchNotice) => void): () => void }
  notices: NoticeSink
  /** Monaco's models by default; tests pass plain text buffers. */
  createBuffer?: BufferFactory
  /** The other pages of the sandbox, to co-edit files with (loaded when the first file opens). */
  collaboration?: () => Promise<Collaboration>
}

const monacoBuffer: BufferFactory = async (text, path, reduced) =>
  (await loadMonaco()).createTextBuffer(text, path, reduced)

/**
 * The open files of one session as tabs: which is shown, which takes the keyboard, which may not
 * be edited, and closing with a question when there are unsaved changes. Each file keeps itself
 * in step with the disk (OpenDocument); the shared watch tells them when to look (followWatch).
 */
export class EditorManager {
  private docs: OpenDocument[] = []
  private activeId: string | undefined
  private closing: string | undefined
  private quickOpen = false
  /** Requests for the editor to take the keyboard, and the last one it took (or an open cancelled). */
  private focusRequest = 0
  private focusTaken = 0
  private counter = 0
  private reveal: Reveal | undefined
  private codeIntelligence = false
  private comparisons = new Map<string, Comparison>()
  private snapshot: EditorSnapshot = {
    documents: [],
    activeId: undefined,
    closing: undefined,
    quickOpen: false,
    focusRequest: 0,
    reveal: undefined,
    codeIntelligence: false,
    comparisons: new Map(),
  }
  private readonly subscribers = new Subscribers()
  private readonly readOnlyRules = new Set<ReadOnlyRule>()
  private readonly savedListeners = new Set<(path: string) => void>()
  private readonly disposables = new DisposableStore()
  private readonly host: DocumentHost
  private disposed = false
  private collaborationFailed = false

  constructor(
    private readonly session: EditorSession,
    { watch, notices, createBuffer = monacoBuffer, collaboration }: EditorSources,
  ) {
    this.host = {
      files: session.files,
      createBuffer,
      isRunning: () => this.isRunning(),
      changed: () => this.emit(),
      notify: (text) => {
        if (!this.disposed) notices.push('error', text)
      },
      saved: (path) => {
        for (const listener of this.savedListeners) listener(path)
      },
      openElsewhere: (doc, path) => {
        const same = this.docs.find((d) => d !== doc && d.path === path)
        if (!same) return false
        this.close(doc.id)
        this.activeId = same.id
        this.emit()
        return true
      },
      loadedWithFocus: (doc) => {
        if (this.activeId === doc.id) this.focusRequest++
      },
      share: collaboration && ((buffer, path, diskText) => this.share(collaboration, buffer, path, diskText)),
    }
    this.disposables.add(
      toDisposable(
        followWatch(watch, {
          documents: () => this.docs,
          renamed: (from, to) => this.renamed(from, to),
          files: session.files,
        }),
      ),
    )
  }

  subscribe = this.subscribers.add

  /** Joins the others' copy of the file; a page that cannot reach them edits alone, and says why once. */
  private async share(
    collaboration: () => Promise<Collaboration>,
    buffer: TextBuffer,
    path: string,
    diskText: string,
  ): Promise<void> {
    // Said before anything is loaded for it: such a file is never shared.
    if (diskText.length > maxSharedChars) {
      this.host.notify(
        `${path} is too big to edit together (over ${maxSharedChars / 2 ** 20} M characters): here, others' edits arrive only when saved`,
      )
      return
    }
    try {
      const { documents, presence } = await collaboration()
      const shared = await documents.join(path, diskText)
      const leave = () => documents.leave(shared)
      if (documents.listenOnly) {
        // A view-only page shows the disk's text until the others' whole copy first arrives.
        void shared.hasState.then(() => {
          if (!buffer.share(shared, presence, buffer.getText(), leave)) leave()
        })
        return
      }
      if (!buffer.share(shared, presence, diskText, leave)) leave()
    } catch (err) {
      if (this.collaborationFailed || this.disposed) return
      this.collaborationFailed = true
      this.host.notify(`Co-editing is off: ${errorMessage(err)}`)
    }
  }

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

  /** Code intelligence is on (or off) for the workspace: the banners say so where it matters. */
  setCodeIntelligence(on: boolean): void {
    if (on === this.codeIntelligence) return
    this.codeIntelligence = on
    this.emit()
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
  open(path: string, { focus = true, at }: { focus?: boolean; at?: EditorRange } = {}): Promise<void> {
    if (!focus) this.focusTaken = this.focusRequest
    const existing = this.docs.find((d) => d.path === path)
    if (existing) {
      this.activeId = existing.id
      if (focus) this.focusRequest++
      else existing.focusOnLoad = false
      if (at) this.reveal = { documentId: existing.id, range: at, seq: (this.reveal?.seq ?? 0) + 1 }
      this.emit()
      return existing.settled
    }
    const doc = new OpenDocument(`editor-${++this.counter}`, path, focus, this.host)
    this.docs.push(doc)
    this.activeId = doc.id
    if (at) this.reveal = { documentId: doc.id, range: at, seq: (this.reveal?.seq ?? 0) + 1 }
    this.emit()
    return doc.load({ focus })
  }

  /**
   * Opens files with unsaved text kept from an earlier page (hot exit), in tabs that keep the
   * keyboard where it is; a file open already is left as it is. Resolves to the paths restored.
   */
  async restore(backups: readonly UnsavedText[]): Promise<string[]> {
    const restoring = backups
      .filter((backup) => !this.docs.some((d) => d.path === backup.path))
      .map((backup) => {
        const doc = new OpenDocument(`editor-${++this.counter}`, backup.path, false, this.host)
        this.docs.push(doc)
        this.activeId ??= doc.id
        return doc.restore(backup).then(() => doc)
      })
    this.emit()
    const docs = await Promise.all(restoring)
    return docs.filter((doc) => doc.dirty).map((doc) => doc.path)
  }

  /** An open file's text if it is not saved, with what it was based on (for its backup). */
  unsavedText(id: string): UnsavedText | undefined {
    return this.find(id)?.unsaved()
  }

  /** The text buffer of an open file, once loaded: what edits to an open file go to. */
  bufferOf(path: string): TextBuffer | undefined {
    return this.docs.find((d) => d.path === path && d.view === 'text')?.buffer
  }

  /** Saves every file with unsaved changes (File: Save All), each through the conflict-safe path. */
  async saveAll(): Promise<void> {
    await Promise.all(this.docs.filter((d) => d.dirty).map((d) => this.save(d.id)))
  }

  /** Shows a tab, and looks at its file on disk (the watch covers only the home folder). */
  activate(id: string): void {
    const doc = this.find(id)
    if (!doc) return
    this.activeId = id
    this.emit()
    doc.scheduleCheck()
  }

  /** Shows the next (1) or previous (-1) tab. */
  cycle(delta: number): void {
    const index = this.docs.findIndex((d) => d.id === this.activeId)
    const next = this.docs[(index + delta + this.docs.length) % this.docs.length]
    if (next) this.activate(next.id)
  }

  /** The active file has changed where the watch does not look (the page was hidden): look. */
  checkActive(): void {
    if (this.activeId) this.find(this.activeId)?.scheduleCheck()
  }

  /** Saves a file (the active one by default) after checking the disk still holds what was loaded. */
  save(id = this.activeId): Promise<void> {
    const doc = id ? this.find(id) : undefined
    if (!doc?.buffer || doc.view !== 'text') return Promise.resolve()
    if (!this.isRunning()) {
      this.host.notify(`${doc.path} was not saved: the sandbox is not running, so the editor is read-only`)
      return Promise.resolve()
    }
    const readOnly = this.readOnlyReason(doc.path)
    if (readOnly) {
      this.host.notify(`${doc.path} was not saved: ${readOnly}`)
      return Promise.resolve()
    }
    return doc.save()
  }

  /** Closes a tab, or asks first when it has unsaved changes. */
  requestClose(id = this.activeId): void {
    const doc = id ? this.find(id) : undefined
    if (!doc) return
    if (doc.dirty) {
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
      if (doc.dirty) return
    }
    this.close(doc.id)
  }

  /** Keep mine: the buffer wins; after a refused save, the save the user asked for runs now. */
  keepMine(id: string): Promise<void> {
    const cause = this.find(id)?.keepMine()
    if (!cause) return Promise.resolve()
    this.focusRequest++
    this.emit()
    return cause === 'save' ? this.save(id) : Promise.resolve()
  }

  /** Load disk version: the buffer takes the disk's text (one undo step brings the user's back). */
  loadDiskVersion(id: string): Promise<void> {
    const doc = this.find(id)
    if (!doc?.conflict) return Promise.resolve()
    const taken = doc.takeDiskVersion()
    if (taken !== true) return taken
    this.focusRequest++
    this.emit()
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

  /**
   * Opens `path` beside another version of it (the Source Control view's diff): that version on
   * the left, read-only; the file's own buffer on the right, edited and saved as ever.
   */
  async compareWith(path: string, against: Comparison): Promise<void> {
    await this.open(path)
    const doc = this.docs.find((d) => d.path === path)
    if (!doc) return
    if (doc.view !== 'text') {
      this.host.notify(`${path} cannot be compared: it is not open as text`)
      return
    }
    this.comparisons.set(doc.id, against)
    this.activeId = doc.id
    this.emit()
  }

  /** Shows a file alone again after `compareWith`. */
  stopComparing(id: string): void {
    if (!this.comparisons.delete(id)) return
    this.focusRequest++
    this.emit()
  }

  /** Saves a binary or too-big file to the user's computer. */
  async download(id: string): Promise<void> {
    const doc = this.find(id)
    if (!doc) return
    try {
      await saveSandboxFile(this.session.files, doc.path, baseName(doc.path))
    } catch (err) {
      this.host.notify(`Downloading ${doc.path} failed: ${errorMessage(err)}`)
    }
  }

  /** Opens `path` again from disk, after an error. */
  retry(id: string): Promise<void> {
    return this.find(id)?.load({ focus: true }) ?? Promise.resolve()
  }

  /** The explorer renamed or moved `from` (a file or a folder): open files under it follow. */
  renamed(from: string, to: string): void {
    const moved: OpenDocument[] = []
    for (const doc of this.docs) {
      const path = movedPath(doc.path, from, to)
      if (path === undefined) continue
      doc.moveTo(path)
      moved.push(doc)
    }
    if (moved.length === 0) return
    this.emit()
    for (const doc of moved) doc.scheduleCheck()
  }

  /** The explorer deleted `path` (a file or a folder): clean tabs under it close, dirty ones stay. */
  removed(path: string): void {
    for (const doc of [...this.docs]) {
      if (!isAtOrUnder(doc.path, path)) continue
      if (doc.dirty) doc.deletedOnDisk = true
      else this.close(doc.id)
    }
    this.emit()
  }

  /** Some open file has changes that are not on disk. */
  hasUnsaved(): boolean {
    return this.docs.some((d) => d.dirty)
  }

  /** Shows or hides the "open a file by path" dialog. */
  setQuickOpen(open: boolean): void {
    this.quickOpen = open
    this.emit()
  }

  dispose(): void {
    this.disposed = true
    this.disposables.dispose()
    for (const doc of this.docs) doc.close()
    this.docs = []
    this.subscribers.clear()
  }

  private isRunning(): boolean {
    return this.session.getSnapshot().state.kind === 'running'
  }

  private close(id: string): void {
    const index = this.docs.findIndex((d) => d.id === id)
    const doc = this.docs[index]
    if (!doc) return
    doc.close()
    this.docs.splice(index, 1)
    this.comparisons.delete(id)
    if (this.closing === id) this.closing = undefined
    if (this.activeId === id) this.activeId = (this.docs[index] ?? this.docs[index - 1])?.id
    this.emit()
  }

  private find(id: string): OpenDocument | undefined {
    return this.docs.find((d) => d.id === id)
  }

  private emit(): void {
    if (this.disposed) return
    this.snapshot = {
      documents: this.docs.map((d) => d.describe(this.readOnlyReason(d.path))),
      activeId: this.activeId,
      closing: this.closing,
      quickOpen: this.quickOpen,
      focusRequest: this.focusRequest,
      reveal: this.reveal,
      codeIntelligence: this.codeIntelligence,
      comparisons: new Map(this.comparisons),
    }
    this.subscribers.notify()
  }
}
