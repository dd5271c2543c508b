import { create } from '@bufbuild/protobuf'
import { Code, ConnectError } from '@connectrpc/connect'
import { type WatchDirResponse, WatchDirResponseSchema } from '../../../src/gen/filesystem_pb'
import { Channel } from '../channel'
import { internal } from '../errors'
import type { UserDirectory } from '../users'
import { type DirWatcher, newDirWatcher } from './dirWatcher'
import { filesystemEvents } from './filesystemEvents'

/** What one WatchDir stream watches. */
export interface WatchSpec {
  /** The directory as the client named it (resolved, symlinks not followed). */
  path: string
  /** Its real path: what inotify watches. */
  realPath: string
  recursive: boolean
  includeEntry: boolean
}

/**
 * Events a stream may hold for a client that does not read: inotify's own default queue
 * length. Past it the stream ends with `resource_exhausted` rather than grow without bound.
 */
export const defaultMaxQueuedEvents = 16_384

/**
 * The watcher behind one WatchDir stream, feeding a bounded queue of responses. When the
 * client stalls and the queue is full the watch stops and the queue ends with
 * `resource_exhausted`; a watcher failure ends it with `internal`.
 */
export class WatchStream {
  readonly responses = new Channel<WatchDirResponse>()
  private readonly watcher: DirWatcher
  private didOverflow = false

  constructor(
    spec: WatchSpec,
    users: UserDirectory,
    private readonly maxQueued = defaultMaxQueuedEvents,
  ) {
    this.watcher = newDirWatcher(spec.realPath, {
      recursive: spec.recursive,
      onChanges: (changes) => {
        const events = filesystemEvents(changes, spec.path, spec.includeEntry, users)
        for (const event of events) {
          if (this.responses.weight >= this.maxQueued) return this.overflow()
          this.responses.push(create(WatchDirResponseSchema, { event: { case: 'filesystem', value: event } }))
        }
      },
      onError: (err) => this.responses.close(internal(`error watching directory: ${err.message}`)),
    })
  }

  /** Registers the watches; the stream may say `start` once this resolves. */
  start(): Promise<void> {
    return this.watcher.start()
  }

  /** Whether the queue overflowed and the stream was ended for it. */
  get overflowed(): boolean {
    return this.didOverflow
  }

  private overflow(): void {
    this.didOverflow = true
    this.watcher.close()
    this.responses.close(
      new ConnectError(
        `more than ${this.maxQueued} watch events queued: the client is not reading; watch again and re-list`,
        Code.ResourceExhausted,
      ),
    )
  }

  /** Stops watching and ends the queue (items still queued are dropped by the consumer). */
  dispose(): void {
    this.watcher.close()
    this.responses.close()
  }
}
