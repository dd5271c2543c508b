import { isNotFound } from '../../sandbox/sandboxError'
import { type EntryInfo, FileType, type SandboxFiles } from '../../sandbox/sandboxFiles'
import { contentHash } from './contentHash'
import { decodeText, encodeText } from './decodeText'
import { type DiskVersion, sameVersion, versionOf } from './diskVersion'
import { fileTier } from './fileLimits'
import { baseName } from './movedPath'
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
  /** The others who have it open too (co-editing). */
  others: { name: string; color: string }[]
}

/**
 * Unsaved text of a file, as a backup keeps it (hot exit): the buffer's text, and the hash of the
 * disk's bytes it was based on (none when the file was gone from the disk).
 */
export interface UnsavedText {
  path: string
  text: string
  baseHash: string | undefined
}

/** Makes the editable text of a file (Monaco's model, loaded lazily; a fake in tests). */
export type BufferFactory = (text: string, path: string, reduced: boolean) => Promise<TextBuffer>

/** What a document needs from the editor that holds it. */
export interface DocumentHost {
  readonly files: Pick<SandboxFiles, 'stat' | 'read' | 'write'>
  createBuffer: BufferFactory
  isRunning(): boolean
  /** Something the view shows changed. */
  changed(): void
  /** Tells the user what went wrong. */
  notify(text: string): void
  /** A save reached the disk. */
  saved(path: string): void
  /** The loaded file turned out to be open already under another spelling: the host keeps that one. */
  openElsewhere(doc: OpenDocument, path: string): boolean
  /** The text is ready and the user asked for the keyboard to go to it. */
  loadedWithFocus(doc: OpenDocument): void
  /**
   * Shares the buffer with the other pages that have the file open (co-editing), if they can
   * be reached; settles once the buffer holds the shared text, or stays unshared.
   */
  share?(buffer: TextBuffer, path: string, diskText: string): Promise<void>
}

type Disagreement = Conflict & { version: DiskVersion; hash: string }

/** What the disk holds compared with what the buffer was loaded from. */
type DiskState =
  | { kind: 'same' }
  | { kind: 'missing' }
  | { kind: 'changed'; text: string | undefined; version: DiskVersion; hash: string; tooBig: boolean }

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/**
 * One open file kept in step with its file on disk without ever losing an edit. Files are read
 * and written through the runtime's /files; Stat (size and modification time) plus a hash of the
 * bytes tell whether the disk still holds what was loaded. A clean buffer takes a change quietly,
 * a dirty one gets a conflict to resolve, and a save checks the disk first and asks instead of
 * overwriting a change it has not seen. Loads, checks and saves run one after the other.
 */
export class OpenDocument {
  view: DocumentView = 'loading'
  size: number | undefined
  reduced = false
  saving = false
  deletedOnDisk = false
  comparing = false
  error: string | undefined
  buffer: TextBuffer | undefined
  /** What the disk held when the buffer was last in step with it. */
  version: DiskVersion | undefined
  conflict: Disagreement | undefined
  /**
   * Whether the editor takes the keyboard when the next load ends: set by an open or a button
   * that asks for it, cleared by every load, so a reload the watch starts never takes it.
   */
  focusOnLoad: boolean
  private hash: string | undefined
  private stopDirty: (() => void) | undefined
  private queue: Promise<void> = Promise.resolve()
  private checkQueued = false
  private closed = false

  constructor(
    readonly id: string,
    public path: string,
    focus: boolean,
    private readonly host: DocumentHost,
  ) {
    this.focusOnLoad = focus
  }

  get dirty(): boolean {
    return !!this.buffer?.dirty
  }

  /** Settles once every load, check and save asked for so far has run. */
  get settled(): Promise<void> {
    return this.queue
  }

  /** Reads the file from disk again (the first load, a retry). */
  load({ focus }: { focus: boolean }): Promise<void> {
    if (focus) this.focusOnLoad = true
    return this.enqueue(() => this.loadNow())
  }

  /**
   * Opens the file with unsaved text kept from an earlier page (hot exit). Based on what the disk
   * still holds, it is simply unsaved; based on something else, the disk's text is offered beside
   * it (a conflict, as when the disk changes under unsaved edits); with the file gone, it is an
   * unsaved file that a save writes again.
   */
  restore(unsaved: UnsavedText): Promise<void> {
    return this.enqueue(() => this.restoreNow(unsaved))
  }

  /** The buffer's text if it differs from the disk's, with what it was based on. */
  unsaved(): UnsavedText | undefined {
    if (!this.buffer?.dirty) return undefined
    return {
      path: this.path,
      text: this.buffer.getText(),
      baseHash: this.deletedOnDisk ? undefined : this.hash,
    }
  }

  /** Writes the buffer once what is queued before has run. */
  save(): Promise<void> {
    return this.enqueue(() => this.write())
  }

  /** Looks at the disk soon: the watch (or a tab shown again) says it may have changed. */
  scheduleCheck(): void {
    if (this.checkQueued) return
    this.checkQueued = true
    void this.enqueue(() => {
      this.checkQueued = false
      return this.check()
    })
  }

  /** Follows a rename or move of the file. */
  moveTo(path: string): void {
    this.path = path
    this.deletedOnDisk = false
    this.buffer?.renamed(path)
  }

  /** Keep mine: the buffer wins; the disk's current version becomes what a save may replace. */
  keepMine(): Conflict['cause'] | undefined {
    const conflict = this.conflict
    if (conflict) this.settle(conflict)
    return conflict?.cause
  }

  /**
   * Load disk version: the buffer takes the disk's text now (one undo step brings the user's
   * back) and this returns true; or, when the disk holds no text to take, the file is loaded
   * again, and this returns the load.
   */
  takeDiskVersion(): true | Promise<void> {
    const conflict = this.conflict
    if (conflict?.diskText === undefined || !this.buffer) {
      this.conflict = undefined
      return this.load({ focus: true })
    }
    this.buffer.reload(conflict.diskText)
    this.settle(conflict)
    return true
  }

  /** Lets go of the buffer for good. */
  close(): void {
    this.closed = true
    this.release()
  }

  /** The document as the view renders it. */
  describe(readOnly: string | undefined): EditorDocument {
    return {
      id: this.id,
      path: this.path,
      name: baseName(this.path),
      view: this.view,
      size: this.size,
      reduced: this.reduced,
      dirty: this.dirty,
      saving: this.saving,
      deletedOnDisk: this.deletedOnDisk,
      conflict: this.conflict && { cause: this.conflict.cause, diskText: this.conflict.diskText },
      comparing: this.comparing,
      error: this.error,
      buffer: this.buffer,
      readOnly,
      others: this.buffer?.others() ?? [],
    }
  }

  /** Ends a conflict either way: the disk's version is now what a save may replace. */
  private settle(conflict: Disagreement): void {
    this.version = conflict.version
    this.hash = conflict.hash
    this.conflict = undefined
    this.comparing = false
  }

  private async loadNow(): Promise<void> {
    this.view = 'loading'
    this.error = undefined
    this.host.changed()
    try {
      const entry = await this.host.files.stat(this.path)
      if (entry.type === FileType.DIRECTORY) throw new Error('it is a folder')
      // Opened by another spelling of a path already open (relative, `~`): that tab is shown instead.
      if (this.host.openElsewhere(this, entry.path)) return
      this.path = entry.path
      this.size = Number(entry.size)
      this.version = versionOf(entry)
      this.release()
      const tier = fileTier(this.size)
      if (tier === 'download-only') {
        this.view = 'download-only'
        return
      }
      const bytes = await this.host.files.read(this.path)
      this.hash = contentHash(bytes)
      this.size = bytes.length
      const text = decodeText(bytes)
      if (text === undefined) {
        this.view = 'binary'
        return
      }
      this.reduced = tier === 'reduced'
      const buffer = await this.host.createBuffer(text, this.path, this.reduced)
      if (!this.closed) await this.host.share?.(buffer, this.path, text)
      if (this.closed) {
        buffer.dispose()
        return
      }
      this.buffer = buffer
      this.stopDirty = buffer.onDirtyChange(() => this.host.changed())
      this.view = 'text'
      if (this.focusOnLoad) this.host.loadedWithFocus(this)
    } catch (err) {
      this.view = 'error'
      this.error = errorMessage(err)
    } finally {
      this.focusOnLoad = false
      this.host.changed()
    }
  }

  private async restoreNow({ text, baseHash }: UnsavedText): Promise<void> {
    try {
      await this.host.files.stat(this.path)
    } catch (err) {
      if (!isNotFound(err)) throw err
      await this.restoreMissing(text)
      return
    }
    await this.loadNow()
    const buffer = this.buffer
    if (this.closed) return
    if (this.view !== 'text' || !buffer) {
      this.host.notify(
        `Unsaved changes to ${this.path} were not restored: ${this.error ?? 'it is not text now'}`,
      )
      return
    }
    if (buffer.sharing?.shared) {
      // Others have it open: their copy already holds what was typed together, this tab's too;
      // laying the old text over theirs would undo what they did since.
      if (buffer.getText() !== text)
        this.host.notify(
          `Unsaved changes to ${this.path} from a closed tab were not laid over the text others are editing now`,
        )
      return
    }
    const diskText = buffer.getText()
    if (this.hash !== baseHash && this.version && this.hash && diskText !== text) {
      this.conflict = { cause: 'changed', diskText, version: this.version, hash: this.hash }
      // The text was based on other bytes: checks compare the disk with those, as for any conflict.
      this.version = undefined
      this.hash = baseHash
    }
    buffer.edit(text)
    this.host.changed()
  }

  /** The unsaved text of a file gone from the disk: a buffer that holds it, for a save to write again. */
  private async restoreMissing(text: string): Promise<void> {
    const buffer = await this.host.createBuffer('', this.path, false)
    if (this.closed) {
      buffer.dispose()
      return
    }
    this.release()
    this.buffer = buffer
    this.stopDirty = buffer.onDirtyChange(() => this.host.changed())
    this.view = 'text'
    this.deletedOnDisk = true
    buffer.edit(text)
    this.focusOnLoad = false
    this.host.changed()
  }

  /** Looks at the disk after the watch (or a resync) said the file may have changed. */
  private async check(): Promise<void> {
    if (!this.host.isRunning() || this.closed || this.view === 'loading' || this.view === 'error') return
    if (this.view !== 'text' || !this.buffer) {
      await this.checkUneditable()
      return
    }
    let disk: DiskState
    try {
      disk = await this.diskState()
    } catch (err) {
      // Paused (or gone) meanwhile: the resync on resume checks again, so that is no failure to tell.
      if (this.host.isRunning())
        this.host.notify(`Checking ${this.path} on disk failed: ${errorMessage(err)}`)
      return
    }
    this.deletedOnDisk = disk.kind === 'missing'
    if (disk.kind === 'same') {
      this.conflict = undefined
      this.comparing = false
    } else if (disk.kind === 'changed' && this.buffer.sharing && this.othersCarry(disk)) {
      // Another page saved it, or the page that leads takes it in: the shared text follows.
      this.version = disk.version
      this.hash = disk.hash
      this.conflict = undefined
      this.buffer.adoptDisk(disk.text as string)
    } else if (
      disk.kind === 'changed' &&
      this.buffer.sharing &&
      !this.conflict &&
      disk.text !== undefined &&
      !disk.tooBig &&
      this.buffer.mergeDisk(disk.text)
    ) {
      // This page leads: the outside change goes into the shared text as edits, merged with
      // everyone's unsaved ones; where both changed the same lines, the conflict bar asks (and
      // once it asks, as for restored unsaved text the disk moved on from, the person decides).
      this.version = disk.version
      this.hash = disk.hash
      this.conflict = undefined
    } else if (disk.kind === 'changed') {
      const clean = !this.buffer.dirty && !this.conflict
      if (clean && disk.text !== undefined && !disk.tooBig) {
        // Clean: take the disk's text quietly; the cursor stays where it was.
        this.buffer.reload(disk.text)
        this.version = disk.version
        this.hash = disk.hash
      } else if (clean) {
        await this.loadNow()
        return
      } else {
        const cause = this.conflict?.cause ?? 'changed'
        this.conflict = { cause, diskText: disk.text, version: disk.version, hash: disk.hash }
        if (disk.text === undefined) this.comparing = false
      }
    }
    this.host.changed()
  }

  /**
   * Whether a change on disk to a shared file is already in the shared text, or will be without
   * this page: the disk holds the shared text (a save by anyone), another page said it saved
   * these bytes, or another page leads and takes changes from outside in for all.
   */
  private othersCarry(disk: Extract<DiskState, { kind: 'changed' }>): boolean {
    const shared = this.buffer?.sharing
    if (!shared || disk.text === undefined || disk.tooBig) return false
    return disk.text === this.buffer?.getText() || shared.savedByOther(disk.hash) || !shared.leads
  }

  /** Nothing unsaved in a binary or too-big file: show whatever the disk holds now. */
  private async checkUneditable(): Promise<void> {
    try {
      if (sameVersion(versionOf(await this.host.files.stat(this.path)), this.version)) return
    } catch (err) {
      if (!isNotFound(err)) throw err
      this.deletedOnDisk = true
      this.host.changed()
      return
    }
    this.deletedOnDisk = false
    await this.loadNow()
  }

  /** Writes the buffer, unless the disk changed since it was loaded: then it asks (a conflict). */
  private async write(): Promise<void> {
    const buffer = this.buffer
    if (!buffer || this.closed) return
    if (!buffer.dirty && !this.deletedOnDisk) return
    if (this.conflict) {
      this.conflict.cause = 'save'
      this.host.changed()
      return
    }
    this.saving = true
    this.host.changed()
    try {
      const disk = await this.diskState()
      if (disk.kind === 'changed') {
        this.conflict = { cause: 'save', diskText: disk.text, version: disk.version, hash: disk.hash }
        return
      }
      const versionId = buffer.versionId()
      const text = buffer.getText()
      const bytes = encodeText(text)
      await this.host.files.write(this.path, bytes)
      // The stat right after our own write is taken as ours: a write by someone else in those
      // few milliseconds would be missed (the runtime has no compare-and-swap upload).
      const entry = await this.host.files.stat(this.path)
      this.version = versionOf(entry)
      this.hash = contentHash(bytes)
      this.size = bytes.length
      this.deletedOnDisk = false
      buffer.markSaved(versionId, text)
      buffer.sharing?.saved(this.hash)
      this.host.saved(this.path)
    } catch (err) {
      this.host.notify(`Saving ${this.path} failed: ${errorMessage(err)}`)
    } finally {
      this.saving = false
      this.host.changed()
    }
  }

  /** Compares the disk with what the buffer was loaded from: Stat first, the bytes only if it moved. */
  private async diskState(): Promise<DiskState> {
    let entry: EntryInfo
    try {
      entry = await this.host.files.stat(this.path)
    } catch (err) {
      if (isNotFound(err)) return { kind: 'missing' }
      throw err
    }
    if (entry.type === FileType.DIRECTORY) return { kind: 'missing' }
    const version = versionOf(entry)
    if (sameVersion(version, this.version)) return { kind: 'same' }
    if (fileTier(Number(entry.size)) === 'download-only') {
      return { kind: 'changed', text: undefined, version, hash: `size:${entry.size}`, tooBig: true }
    }
    const bytes = await this.host.files.read(this.path)
    const hash = contentHash(bytes)
    if (hash === this.hash) {
      // Touched, or written with the same bytes: not a change (no false conflict).
      this.version = version
      return { kind: 'same' }
    }
    return { kind: 'changed', text: decodeText(bytes), version, hash, tooBig: false }
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task)
    this.queue = run.catch((err: unknown) => this.host.notify(`${this.path}: ${errorMessage(err)}`))
    return this.queue
  }

  private release(): void {
    this.stopDirty?.()
    this.stopDirty = undefined
    this.buffer?.dispose()
    this.buffer = undefined
  }
}
