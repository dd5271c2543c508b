// Fakes of the domain layer for the editor's tests: an in-memory disk behind SandboxFiles, a watch
// the test drives, and plain-text buffers in place of Monaco's models.
import type { FileChange, WatchNotice } from '../../../sandbox/fileWatch'
import type { SessionSnapshot } from '../../../sandbox/SandboxSession'
import { SandboxError } from '../../../sandbox/sandboxError'
import { FileType, fileEntry, type SandboxFiles } from '../../../sandbox/sandboxFiles'
import { EditorManager } from '../EditorManager'
import type { TextBuffer } from '../TextBuffer'

/** What the editor uses of a Monaco-backed buffer, over a string. */
export class PlainBuffer {
  private version = 0
  private savedVersion = 0
  private readonly listeners = new Set<() => void>()
  private readonly changeListeners = new Set<() => void>()
  disposed = false
  /** Never shared: co-editing is tested over Monaco's models in the browser. */
  readonly sharing = undefined

  constructor(
    private text: string,
    public path: string,
  ) {}

  get dirty(): boolean {
    return this.version !== this.savedVersion
  }
  versionId(): number {
    return this.version
  }
  getText(): string {
    return this.text
  }
  /** The user types. */
  type(text: string): void {
    this.edit(text)
  }
  edit(text: string): void {
    const wasDirty = this.dirty
    this.text = text
    this.version++
    for (const listener of this.changeListeners) listener()
    if (!wasDirty) for (const listener of this.listeners) listener()
  }
  adoptDisk(): void {}
  others(): { name: string; color: string }[] {
    return []
  }
  markSaved(versionId = this.version): void {
    const wasDirty = this.dirty
    this.savedVersion = versionId
    if (wasDirty !== this.dirty) for (const listener of this.listeners) listener()
  }
  reload(text: string): void {
    this.text = text
    this.version++
    for (const listener of this.changeListeners) listener()
    this.markSaved()
  }
  renamed(path: string): void {
    this.path = path
  }
  onDirtyChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener)
    return () => this.changeListeners.delete(listener)
  }
  dispose(): void {
    this.disposed = true
  }
}

/** A sandbox whose disk is a map of path → text; every write moves the modification time on. */
export function fakeSandbox(initial: Record<string, string | Uint8Array>) {
  const encoder = new TextEncoder()
  const disk = new Map<string, { bytes: Uint8Array; mtime: number }>()
  let clock = 1
  const put = (path: string, content: string | Uint8Array) =>
    disk.set(path, { bytes: typeof content === 'string' ? encoder.encode(content) : content, mtime: clock++ })
  for (const [path, content] of Object.entries(initial)) put(path, content)
  const entryOf = (path: string) => {
    const file = disk.get(path)
    if (file)
      return fileEntry({
        path,
        name: path.slice(path.lastIndexOf('/') + 1),
        type: FileType.FILE,
        size: BigInt(file.bytes.length),
        modifiedSeconds: file.mtime,
      })
    if ([...disk.keys()].some((p) => p.startsWith(`${path}/`)))
      return fileEntry({ path, type: FileType.DIRECTORY })
    throw new SandboxError('not-found', `path '${path}' does not exist`)
  }
  const writes: string[] = []
  const files = {
    stat: async (path: string) => entryOf(path),
    read: async (path: string) => {
      const file = disk.get(path)
      if (!file) throw new SandboxError('not-found', `path '${path}' does not exist`)
      return file.bytes
    },
    write: async (path: string, bytes: Uint8Array) => {
      writes.push(path)
      put(path, bytes)
    },
  } as Pick<SandboxFiles, 'stat' | 'read' | 'write'> as SandboxFiles
  let state: SessionSnapshot['state'] = { kind: 'running' }
  const session = { files, getSnapshot: () => ({ state }) as SessionSnapshot }
  const watchers = new Set<(notice: WatchNotice) => void>()
  const watch = {
    subscribe: (listener: (notice: WatchNotice) => void) => {
      watchers.add(listener)
      return () => watchers.delete(listener)
    },
  }
  const notices: string[] = []
  const buffers: PlainBuffer[] = []
  const editor = new EditorManager(session, {
    watch,
    notices: { push: (_kind, text) => notices.push(text) },
    createBuffer: async (text, path) => {
      const buffer = new PlainBuffer(text, path)
      buffers.push(buffer)
      return buffer as unknown as TextBuffer
    },
  })
  return {
    editor,
    notices,
    writes,
    buffers,
    text: (path: string) => new TextDecoder().decode(disk.get(path)?.bytes),
    /** Someone else changes the disk (a terminal, another program). */
    put,
    remove: (path: string) => disk.delete(path),
    entryOf,
    notify: (changes: FileChange[]) => {
      for (const listener of watchers) listener({ kind: 'changes', changes })
    },
    stop: () => {
      state = { kind: 'paused', processesLost: false }
    },
  }
}
