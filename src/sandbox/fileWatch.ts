import { Code, ConnectError, createClient } from '@connectrpc/connect'
import { streamHeaders } from '../api/runtimeTransport'
import { backoffDelay } from '../common/backoff'
import { DisposableStore, toDisposable } from '../common/lifecycle'
import { type EntryInfo, EventType, Filesystem, type FilesystemEvent } from '../gen/filesystem_pb'
import type { SandboxSession } from './SandboxSession'

/** A change under the watched folder, with its absolute path (and its entry, for CREATE and WRITE). */
export interface FileChange {
  type: EventType
  path: string
  entry?: EntryInfo
}

/** What subscribers get: a batch of changes, or word that changes were missed (re-list). */
export type WatchNotice = { kind: 'changes'; changes: FileChange[] } | { kind: 'resync' }

/** Later events of a burst are gathered for at most this long. */
const batchMs = 100
/**
 * The first event after a quiet spell waits this long for the rest of its operation: a rename's
 * two events (old name, new name) must land in one batch to be seen as a rename, and they may
 * arrive as separate messages (the tunnel hands over each of the runtime's writes as it comes).
 */
const settleMs = 15

/**
 * One recursive WatchDir on a sandbox folder (the home), shared by the explorer and the editor.
 * The first event goes out after 15 ms, the rest of a burst in batches of at most 100 ms. The stream
 * has no cursor, so after it drops (or the sandbox pauses) subscribers are told to re-list what
 * they show; it reconnects with backoff by itself, on a host shard of its own.
 */
export class FileWatch {
  private readonly listeners = new Set<(notice: WatchNotice) => void>()
  private readonly abort = new AbortController()
  private pending: FileChange[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  private lastFlush = 0
  private streaming = false
  private attempt = 0
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private readonly disposables = new DisposableStore()
  /** The absolute path of the watched folder, once the stream started. */
  root: string | undefined

  constructor(
    private readonly session: SandboxSession,
    private readonly path = '',
  ) {
    // Torn down in the reverse order: the stream is aborted, its timers cleared, the session let go.
    this.disposables.add(toDisposable(session.subscribe(() => this.ensure())))
    this.disposables.add(
      toDisposable(() => {
        clearTimeout(this.timer)
        clearTimeout(this.retryTimer)
      }),
    )
    this.disposables.add(toDisposable(() => this.abort.abort()))
    this.ensure()
  }

  /** Receives every batch of changes and every resync. */
  subscribe(listener: (notice: WatchNotice) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  dispose(): void {
    this.disposables.dispose()
    this.listeners.clear()
  }

  private ensure(): void {
    if (this.streaming || this.abort.signal.aborted || this.retryTimer) return
    if (this.session.getSnapshot().state.kind !== 'running') return
    void this.run()
  }

  private async run(): Promise<void> {
    const transport = this.session.streamTransport()
    const clients = this.session.clients
    if (!transport || !clients) return
    this.streaming = true
    try {
      this.root ??= (await clients.filesystem.stat({ path: this.path })).entry?.path
      const stream = createClient(Filesystem, transport).watchDir(
        { path: this.path, recursive: true, includeEntry: true },
        { signal: this.abort.signal, headers: streamHeaders },
      )
      let started = false
      for await (const response of stream) {
        const event = response.event
        if (event.case === 'start') {
          // Anything may have changed while no stream was open.
          if (this.attempt > 0 || started) this.emit({ kind: 'resync' })
          started = true
          this.attempt = 0
        } else if (event.case === 'filesystem') {
          this.queue(event.value)
        }
      }
    } catch (err) {
      if (this.abort.signal.aborted) return
      if (err instanceof ConnectError && err.code === Code.NotFound) return
    } finally {
      this.streaming = false
    }
    if (this.abort.signal.aborted) return
    this.attempt += 1
    this.session.reportTrouble()
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined
      this.ensure()
    }, backoffDelay(this.attempt))
  }

  private queue(event: FilesystemEvent): void {
    const path = event.name === '.' ? (this.root ?? '') : `${this.root}/${event.name}`
    this.pending.push({ type: event.type, path, ...(event.entry ? { entry: event.entry } : {}) })
    if (this.timer) return
    const sinceLast = performance.now() - this.lastFlush
    // Soon after a quiet spell; within a burst, 100 ms after the last batch (not after this event).
    this.timer = setTimeout(() => this.flush(), Math.max(settleMs, batchMs - sinceLast))
  }

  private flush(): void {
    this.timer = undefined
    this.lastFlush = performance.now()
    const changes = this.pending
    this.pending = []
    if (changes.length > 0) this.emit({ kind: 'changes', changes })
  }

  private emit(notice: WatchNotice): void {
    for (const listener of this.listeners) listener(notice)
  }
}

export { EventType }
