import { createRequire } from 'node:module'
import { endianness } from 'node:os'
import { getSystemErrorMap } from 'node:util'
import type * as Native from '@sandbox-ide/fs-entries'

// The runtime's one inotify instance (packages/fs-entries, inotify.c), shared by every watcher:
// the kernel's events with their masks, which fs.watch does not give. Shared so that a runtime
// holds one of the host user's inotify instances (128 by default, for every sandbox) however
// many watches its clients open; the kernel gives the same directory the same descriptor, which
// is counted here per watcher.

/** inotify(7)'s flags. */
export const IN = {
  MODIFY: 0x2,
  ATTRIB: 0x4,
  MOVED_FROM: 0x40,
  MOVED_TO: 0x80,
  CREATE: 0x100,
  DELETE: 0x200,
  DELETE_SELF: 0x400,
  MOVE_SELF: 0x800,
  UNMOUNT: 0x2000,
  Q_OVERFLOW: 0x4000,
  IGNORED: 0x8000,
  ONLYDIR: 0x1000000,
  DONT_FOLLOW: 0x2000000,
  ISDIR: 0x40000000,
} as const

/** What envd's fsnotify watches each directory for (all of its operations). */
export const watchMask =
  IN.CREATE | IN.MODIFY | IN.DELETE | IN.DELETE_SELF | IN.MOVED_TO | IN.MOVED_FROM | IN.MOVE_SELF | IN.ATTRIB

/** One inotify_event; `name` is empty for the watched directory itself. */
export interface InotifyEvent {
  wd: number
  mask: number
  cookie: number
  name: string
}

/** A watcher holding watches on the shared instance. */
export interface InotifyClient {
  /** Its watches' events from one read, in the kernel's order (an overflow, wd -1, goes to all). */
  receive(events: InotifyEvent[]): void
  /** Reading failed; the client's watches are no use any more. */
  fail(error: Error): void
  /** Resolves once everything received so far is handled. */
  idle(): Promise<void>
}

type NativeInotify = Pick<
  typeof Native,
  'inotifyOpen' | 'inotifyAddWatch' | 'inotifyRemoveWatch' | 'inotifyRead' | 'inotifyClose'
>

/** The addon's inotify, where it was built with it (an older build has only readDirEntries). */
const native = (() => {
  try {
    const addon = createRequire(import.meta.url)('@sandbox-ide/fs-entries') as Partial<NativeInotify>
    return typeof addon.inotifyOpen === 'function' ? (addon as NativeInotify) : undefined
  } catch {
    return undefined
  }
})()

/** A failed call as Node would throw it (its `code`), from a negative errno. */
export function errnoError(errno: number, syscall: string, path?: string): Error {
  const [code, description] = getSystemErrorMap().get(errno) ?? ['EIO', 'i/o error']
  const where = path === undefined ? '' : ` '${path}'`
  return Object.assign(new Error(`${code}: ${description}, ${syscall}${where}`), {
    code,
    errno,
    syscall,
    path,
  })
}

const headerBytes = 16
const little = endianness() === 'LE'

/** The records of one read. */
function parse(data: Buffer): InotifyEvent[] {
  const events: InotifyEvent[] = []
  for (let at = 0; at + headerBytes <= data.length; ) {
    const wd = little ? data.readInt32LE(at) : data.readInt32BE(at)
    const mask = little ? data.readUInt32LE(at + 4) : data.readUInt32BE(at + 4)
    const cookie = little ? data.readUInt32LE(at + 8) : data.readUInt32BE(at + 8)
    const len = little ? data.readUInt32LE(at + 12) : data.readUInt32BE(at + 12)
    const raw = data.subarray(at + headerBytes, at + headerBytes + len)
    const end = raw.indexOf(0)
    events.push({ wd, mask, cookie, name: raw.subarray(0, end < 0 ? raw.length : end).toString('utf8') })
    at += headerBytes + len
  }
  return events
}

/** The shared instance: watches counted per client, events handed to the clients that hold them. */
export class Inotify {
  private readonly holders = new Map<number, Set<InotifyClient>>()
  private readonly clients = new Map<InotifyClient, number>()

  constructor(
    private readonly addon: NativeInotify,
    private readonly handle: Native.InotifyHandle,
  ) {}

  /** Watches `path` for `client`: its descriptor, or a Node-style error (ENOENT, ENOTDIR, ENOSPC…). */
  add(client: InotifyClient, path: string, mask: number = watchMask): number {
    const wd = this.addon.inotifyAddWatch(this.handle, path, mask)
    if (wd < 0) throw errnoError(wd, 'inotify_add_watch', path)
    const holders = this.holders.get(wd) ?? new Set()
    if (!holders.has(client)) {
      holders.add(client)
      this.clients.set(client, (this.clients.get(client) ?? 0) + 1)
    }
    this.holders.set(wd, holders)
    return wd
  }

  /** Gives up `client`'s hold on `wd`; the kernel's watch goes with the last holder. */
  remove(client: InotifyClient, wd: number): void {
    const holders = this.holders.get(wd)
    if (!holders?.delete(client)) return
    this.release(client)
    if (holders.size > 0) return
    this.holders.delete(wd)
    // EINVAL: the kernel already dropped it (the directory went); its IN_IGNORED finds no holder.
    this.addon.inotifyRemoveWatch(this.handle, wd)
  }

  /** How many kernel watches are held (for tests). */
  get watchCount(): number {
    return this.holders.size
  }

  /** Takes what is queued now, without waiting for the poll, and hands it out. */
  read(): void {
    const data = this.addon.inotifyRead(this.handle)
    if (data !== undefined) this.dispatch(data)
  }

  /** Resolves once every event of what was done before the call is handled by its watchers. */
  async settled(): Promise<void> {
    this.read()
    await Promise.all([...this.clients.keys()].map((c) => c.idle()))
  }

  dispatch(data: Buffer | number): void {
    if (typeof data === 'number') {
      const error = errnoError(data, 'read')
      for (const client of [...this.clients.keys()]) client.fail(error)
      return
    }
    const batches = new Map<InotifyClient, InotifyEvent[]>()
    for (const event of parse(data)) {
      const holders = event.wd === -1 ? this.clients.keys() : (this.holders.get(event.wd) ?? [])
      for (const client of holders) {
        const batch = batches.get(client) ?? []
        batch.push(event)
        batches.set(client, batch)
      }
      // The kernel dropped this watch (its directory is gone): nobody holds it any more.
      if (event.mask & IN.IGNORED && event.wd !== -1) this.forget(event.wd)
    }
    for (const [client, events] of batches) client.receive(events)
  }

  private forget(wd: number): void {
    const holders = this.holders.get(wd)
    if (!holders) return
    this.holders.delete(wd)
    for (const client of holders) this.release(client)
  }

  private release(client: InotifyClient): void {
    const held = (this.clients.get(client) ?? 1) - 1
    if (held > 0) this.clients.set(client, held)
    else this.clients.delete(client)
  }
}

let shared: Inotify | undefined

/**
 * The runtime's inotify instance, opened on first use; undefined without the addon's inotify or
 * when the kernel refuses another instance (then watches fall back to fs.watch).
 */
export function sharedInotify(): Inotify | undefined {
  if (shared || !native) return shared
  let instance: Inotify | undefined
  const handle = native.inotifyOpen((data) => instance?.dispatch(data))
  if (typeof handle === 'number') return undefined
  instance = new Inotify(native, handle)
  shared = instance
  return shared
}

/** Longest an answer waits for the watchers (one busy reading a large new folder, say). */
const settleTimeoutMs = 1000

/**
 * Resolves once the watchers have handled the events of everything done before the call, or
 * after a second: an upload answers after its events are queued, so a client that polls for them
 * right after the answer finds them all (the SDK's tests do exactly that).
 */
export async function watchEventsSettled(): Promise<void> {
  if (!shared) return
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, settleTimeoutMs)
  })
  try {
    await Promise.race([shared.settled(), late])
  } finally {
    clearTimeout(timer)
  }
}

/** Hands the watchers what is queued now: one event per syscall, in the order they were made. */
export function readWatchEvents(): void {
  shared?.read()
}
