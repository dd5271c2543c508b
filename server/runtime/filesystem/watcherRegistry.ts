import { randomInt } from 'node:crypto'
import { Code, ConnectError } from '@connectrpc/connect'
import type { FilesystemEvent } from '../../../src/gen/filesystem_pb'
import { internal, notFound } from '../errors'
import type { UserDirectory } from '../users'
import { type DirWatcher, newDirWatcher } from './dirWatcher'
import { filesystemEvents } from './filesystemEvents'
import type { WatchSpec } from './watchStream'

/** Events kept per polled watcher between two GetWatcherEvents calls. */
export const defaultMaxPolledEvents = 16_384

interface PolledWatcher {
  watcher: DirWatcher
  queue: FilesystemEvent[]
  /** Events dropped (oldest first) since the last drain, because nobody collected them. */
  dropped: number
  error: ConnectError | undefined
}

const idAlphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** envd's watcher id: "w" and 20 lowercase alphanumerics. */
function newWatcherId(): string {
  let id = 'w'
  for (let i = 0; i < 20; i++) id += idAlphabet[randomInt(idAlphabet.length)]
  return id
}

/**
 * The polling watchers of CreateWatcher / GetWatcherEvents / RemoveWatcher. Unlike envd's
 * unbounded queue, each keeps at most `maxQueued` events: on overflow the oldest are dropped
 * and the next GetWatcherEvents answers `resource_exhausted` once (and forgets the queue),
 * so the client knows to list the directory again instead of silently missing changes.
 */
export class WatcherRegistry {
  private readonly watchers = new Map<string, PolledWatcher>()

  constructor(
    private readonly users: UserDirectory,
    private readonly maxQueued = defaultMaxPolledEvents,
  ) {}

  /** Starts a watcher and returns its id once its watches are registered. */
  async create(spec: WatchSpec): Promise<string> {
    const id = newWatcherId()
    const polled: PolledWatcher = {
      watcher: newDirWatcher(spec.realPath, {
        recursive: spec.recursive,
        onChanges: (changes) => {
          const events = filesystemEvents(changes, spec.path, spec.includeEntry, this.users)
          polled.queue.push(...events)
          const excess = polled.queue.length - this.maxQueued
          if (excess > 0) {
            polled.queue.splice(0, excess)
            polled.dropped += excess
          }
        },
        onError: (err) => {
          polled.error = internal(`error watching directory: ${err.message}`)
        },
      }),
      queue: [],
      dropped: 0,
      error: undefined,
    }
    try {
      await polled.watcher.start()
    } catch (err) {
      // Release the watches a half-done start already holds.
      polled.watcher.close()
      throw err
    }
    this.watchers.set(id, polled)
    return id
  }

  /** Everything queued since the last call; a failed watcher's error every time, as envd. */
  drain(id: string): FilesystemEvent[] {
    const polled = this.get(id)
    if (polled.error) throw polled.error
    if (polled.dropped > 0) {
      const dropped = polled.dropped
      polled.dropped = 0
      polled.queue = []
      throw new ConnectError(
        `${dropped} watch events were dropped because they were not collected in time; list the directory again`,
        Code.ResourceExhausted,
      )
    }
    const events = polled.queue
    polled.queue = []
    return events
  }

  /** How many events wait for the next drain, dropped ones included (for diagnostics). */
  backlog(id: string): number {
    const polled = this.get(id)
    return polled.queue.length + polled.dropped
  }

  /** Stops and forgets a watcher. */
  remove(id: string): void {
    this.get(id).watcher.close()
    this.watchers.delete(id)
  }

  /** Stops every watcher. */
  dispose(): void {
    for (const polled of this.watchers.values()) polled.watcher.close()
    this.watchers.clear()
  }

  private get(id: string): PolledWatcher {
    const polled = this.watchers.get(id)
    if (!polled) throw notFound(`watcher with id ${id} not found`)
    return polled
  }
}
