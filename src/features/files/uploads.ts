import { Subscribers } from '../../common/Subscribers'
import { sandboxError } from '../../sandbox/sandboxError'
import type { SandboxFiles } from '../../sandbox/sandboxFiles'

/** One file on its way into the sandbox. */
export interface Upload {
  id: number
  path: string
  sent: number
  total: number
  state: 'queued' | 'sending' | 'done' | 'failed' | 'cancelled'
  error?: string
}

/** A dropped file and where it goes, relative to the folder it was dropped on. */
interface Dropped {
  file: File
  relativePath: string
}

/** Reads every file of a dropped folder, however many batches its reader hands out. */
async function filesOf(entry: FileSystemEntry, prefix: string): Promise<Dropped[]> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    )
    return [{ file, relativePath: `${prefix}${entry.name}` }]
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader()
  const out: Dropped[] = []
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    )
    if (batch.length === 0) return out
    for (const child of batch) out.push(...(await filesOf(child, `${prefix}${entry.name}/`)))
  }
}

/** The files of a drop from the desktop, folders included. */
export async function droppedFiles(data: DataTransfer): Promise<Dropped[]> {
  const entries = [...data.items]
    .map((item) => item.webkitGetAsEntry())
    .filter((e): e is FileSystemEntry => !!e)
  if (entries.length === 0) return [...data.files].map((file) => ({ file, relativePath: file.name }))
  return (await Promise.all(entries.map((e) => filesOf(e, '')))).flat()
}

/**
 * Uploads, one file at a time, each with progress and its own cancel; finished ones stay listed
 * until dismissed, failed ones with the runtime's message.
 */
export class UploadQueue {
  private uploads: Upload[] = []
  private readonly controllers = new Map<number, AbortController>()
  private readonly subscribers = new Subscribers()
  private nextId = 1
  private running = false

  constructor(
    private readonly sandbox: Pick<SandboxFiles, 'upload'>,
    private readonly onUploaded: (path: string) => void,
  ) {}

  subscribe = this.subscribers.add

  getSnapshot = (): Upload[] => this.uploads

  /** Queues dropped files under `dir`. */
  add(dir: string, files: Dropped[]): void {
    for (const { file, relativePath } of files) {
      const id = this.nextId++
      this.controllers.set(id, new AbortController())
      this.uploads = [
        ...this.uploads,
        { id, path: `${dir}/${relativePath}`, sent: 0, total: file.size, state: 'queued' },
      ]
      this.files.set(id, file)
    }
    this.changed()
    void this.pump()
  }

  cancel(id: number): void {
    this.controllers.get(id)?.abort()
    this.update(id, { state: 'cancelled' })
  }

  /** Forgets finished, failed and cancelled uploads. */
  clearFinished(): void {
    this.uploads = this.uploads.filter((u) => u.state === 'queued' || u.state === 'sending')
    this.changed()
  }

  private readonly files = new Map<number, File>()

  private async pump(): Promise<void> {
    if (this.running) return
    this.running = true
    try {
      for (;;) {
        const next = this.uploads.find((u) => u.state === 'queued')
        if (!next) return
        const file = this.files.get(next.id) as File
        const signal = (this.controllers.get(next.id) as AbortController).signal
        this.update(next.id, { state: 'sending' })
        try {
          await this.sandbox.upload(
            next.path,
            file,
            (sent, total) => this.update(next.id, { sent, total }),
            signal,
          )
          this.update(next.id, { state: 'done', sent: file.size })
          this.onUploaded(next.path)
        } catch (err) {
          const failure = sandboxError(err)
          // Not connected (yet, or for a while): it waits in the queue for the next add.
          if (failure.kind === 'not-connected') {
            this.update(next.id, { state: 'queued' })
            return
          }
          // A full disk's message is the domain layer's own: "No space left in the sandbox (N MB free)".
          if (!signal.aborted) this.update(next.id, { state: 'failed', error: failure.message })
        }
        this.files.delete(next.id)
        this.controllers.delete(next.id)
      }
    } finally {
      this.running = false
    }
  }

  private update(id: number, patch: Partial<Upload>): void {
    this.uploads = this.uploads.map((u) => (u.id === id ? { ...u, ...patch } : u))
    this.changed()
  }

  private changed(): void {
    this.subscribers.notify()
  }
}
