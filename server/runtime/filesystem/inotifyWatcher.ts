import type { Stats } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { EventType } from '../../../src/gen/filesystem_pb'
import { errnoCode, internal, messageOf, resourceExhausted } from '../errors'
import { byteOrder } from './byteOrder'
import { IN, type Inotify, type InotifyClient, type InotifyEvent, watchMask } from './inotify'
import { hasMoreDirsThan } from './treeSize'
import type { TreeWatcherOptions, WatchChange } from './treeWatcher'
import { maxWatchedDirs } from './treeWatcher'
import { isUploadTempName, replacesTarget } from './uploadTempName'

// A directory watched as envd watches it: one inotify watch per directory (envd's fsnotify fork),
// and every inotify event mapped on its own to envd's events, in the kernel's order:
//   IN_CREATE, IN_MOVED_TO → CREATE        IN_MOVED_FROM → RENAME       IN_ATTRIB → CHMOD
//   IN_MODIFY → WRITE (one per write(2))   IN_DELETE → REMOVE
// An event with several of these flags gives several events in that order (CREATE, RENAME,
// CHMOD, WRITE, REMOVE). A directory's own IN_ATTRIB is reported under its own name ("." for the
// watched one); in a recursive watch a subdirectory's chmod is so reported twice, by its parent's
// watch and by its own, as envd does. So one upload of a new file is CREATE, CHMOD, WRITE, the
// events of envd's open(O_CREAT), fchown and write, and a `mv` is RENAME then CREATE.
// Where it differs from envd, on purpose:
//  - With `recursive`, a new directory is watched and then read, and whatever is already in it
//    is reported (CREATE, and WRITE for a file with data) once: envd's fork misses what was made
//    before its watch (`mkdir -p a/b/c` reports only `a`).
//  - A directory moved out of the tree stops being watched (envd goes on reporting it under its
//    old name); the watched directory itself removed or moved away is REMOVE or RENAME "." and
//    then nothing (envd's subdirectories' watches stay).
//  - Upload temporary files are never reported; an upload landing by rename (a disk without room
//    for a second copy) is WRITE of its target if it replaced one, CREATE if not.

/** Rejected when a tree holds more directories than a watch may. */
function tooLarge(root: string, max: number) {
  return resourceExhausted(
    `error watching directory ${root}: more than ${max} directories in the tree; watch a smaller one`,
  )
}

/** lstats run at once while reading a new directory. */
const statConcurrency = 64

/** Watches `root` (a real, absolute directory path) through the runtime's inotify instance. */
export class InotifyWatcher {
  private readonly wds = new Map<string, number>()
  private readonly dirs = new Map<number, string>()
  /** Paths a read of a new directory reported, with the batch after which their own CREATE cannot come. */
  private readonly scanned = new Map<string, number>()
  /** Batches received (events handed over by the instance), to date the above. */
  private received = 0
  private chain: Promise<void> = Promise.resolve()
  private closed = false
  private readonly client: InotifyClient = {
    receive: (events) => this.receive(events),
    fail: (error) => this.fail(error),
    idle: () => this.chain,
  }

  constructor(
    private readonly root: string,
    private readonly options: TreeWatcherOptions,
    private readonly inotify: Inotify,
  ) {}

  /** Registers the watches (the whole tree's, when recursive); resolves once events are caught. */
  async start(): Promise<void> {
    const begun = this.begin()
    // Events that come while the tree is being watched wait for it.
    this.chain = begun.catch(() => {})
    try {
      await begun
    } catch (err) {
      this.close()
      throw err
    }
  }

  private async begin(): Promise<void> {
    if (this.options.recursive && (await hasMoreDirsThan(this.root, this.maxDirs)))
      throw tooLarge(this.root, this.maxDirs)
    try {
      this.watch(this.root)
    } catch (err) {
      if (err instanceof Error && 'code' in err)
        throw internal(`error watching directory ${this.root}: ${err.message}`)
      throw err
    }
    if (!this.options.recursive) return
    // As fsnotify's recursive Add: every directory below, top down, symlinks not followed.
    const queue = [this.root]
    for (let dir = queue.pop(); dir !== undefined; dir = queue.pop()) {
      let names: string[]
      try {
        names = (await readdir(dir, { withFileTypes: true }))
          .filter((d) => d.isDirectory())
          .map((d) => d.name)
      } catch {
        continue // gone meanwhile: its parent's events tell
      }
      for (const name of names) {
        const path = join(dir, name)
        if (this.watchIfThere(path)) queue.push(path)
      }
    }
  }

  /** Stops every watch; no callback runs after this. */
  close(): void {
    this.closed = true
    this.unwatchAll()
  }

  /** How many directories hold an inotify watch (for tests and diagnostics). */
  get watchCount(): number {
    return this.wds.size
  }

  private get maxDirs(): number {
    return this.options.maxDirs ?? maxWatchedDirs
  }

  private receive(events: InotifyEvent[]): void {
    if (this.closed) return
    const batch = ++this.received
    this.chain = this.chain
      .then(() => (this.closed ? undefined : this.handle(events, batch)))
      .catch((err) => this.fail(err))
  }

  private fail(err: unknown): void {
    if (this.closed) return
    this.close()
    this.options.onError(err instanceof Error ? err : new Error(String(err)))
  }

  private rel(path: string): string {
    return relative(this.root, path) || '.'
  }

  private async handle(events: InotifyEvent[], batch: number): Promise<void> {
    const out: WatchChange[] = []
    /** Directories moved away in this batch, by cookie, until their arrival pairs them. */
    const movedDirs = new Map<number, string>()
    /** Upload temporaries moved away in this batch, by cookie: where an upload lands. */
    const uploads = new Map<number, string>()
    for (const event of events) {
      if (this.closed) return
      const { mask, name, cookie } = event
      if (mask & IN.Q_OVERFLOW) throw new Error('fsnotify: queue or buffer overflow')
      const dir = this.dirs.get(event.wd)
      if (dir === undefined) continue
      if (mask & (IN.IGNORED | IN.UNMOUNT)) {
        this.unmap(event.wd)
        continue
      }
      if (name === '' && mask & (IN.DELETE_SELF | IN.MOVE_SELF)) {
        // A subdirectory's own removal or move is reported by its parent's watch, as fsnotify does.
        if (dir !== this.root) continue
        out.push({ name: '.', type: mask & IN.MOVE_SELF ? EventType.RENAME : EventType.REMOVE })
        this.unwatchAll()
        break
      }
      const path = name === '' ? dir : join(dir, name)
      if (name !== '' && isUploadTempName(name)) {
        if (mask & IN.MOVED_FROM) uploads.set(cookie, name)
        continue
      }
      const rel = this.rel(path)
      const arrived = (mask & (IN.CREATE | IN.MOVED_TO)) !== 0
      // Already reported by the read of a new directory: that CREATE was this one.
      const seen = arrived && this.scanned.delete(path)
      if (arrived && !seen) {
        const upload = mask & IN.MOVED_TO ? uploads.get(cookie) : undefined
        out.push({ name: rel, type: upload && replacesTarget(upload) ? EventType.WRITE : EventType.CREATE })
      }
      if (mask & IN.MOVED_FROM) out.push({ name: rel, type: EventType.RENAME })
      if (mask & IN.ATTRIB) out.push({ name: rel, type: EventType.CHMOD })
      if (mask & IN.MODIFY) out.push({ name: rel, type: EventType.WRITE })
      if (mask & IN.DELETE) out.push({ name: rel, type: EventType.REMOVE })
      if (mask & (IN.DELETE | IN.MOVED_FROM)) this.scanned.delete(path)

      if (!this.options.recursive || !(mask & IN.ISDIR) || name === '' || seen) continue
      if (mask & IN.MOVED_FROM) {
        movedDirs.set(cookie, path)
      } else if (mask & IN.MOVED_TO && movedDirs.has(cookie)) {
        this.moveTree(movedDirs.get(cookie) ?? path, path)
        movedDirs.delete(cookie)
      } else if (arrived) {
        await this.addTree(path, out)
      } else if (mask & IN.DELETE) {
        this.unwatchTree(path)
      }
    }
    // Moved out of the tree: no longer ours to watch.
    for (const from of movedDirs.values()) this.unwatchTree(from)
    for (const [path, last] of this.scanned) if (last <= batch) this.scanned.delete(path)
    if (out.length > 0 && !this.closed) await this.options.onChanges(out)
  }

  /**
   * Watches a directory that arrived in the tree, and everything below it, reporting what is
   * already there: it was made before its watch could see it.
   */
  private async addTree(top: string, out: WatchChange[]): Promise<void> {
    const reported: string[] = []
    const visit = async (dir: string) => {
      if (!this.watchIfThere(dir)) return
      let names: string[]
      try {
        names = (await readdir(dir)).filter((n) => !isUploadTempName(n)).sort(byteOrder)
      } catch {
        return
      }
      const stats: (Stats | undefined)[] = []
      for (let i = 0; i < names.length; i += statConcurrency) {
        const chunk = names.slice(i, i + statConcurrency)
        stats.push(...(await Promise.all(chunk.map((n) => lstat(join(dir, n)).catch(() => undefined)))))
      }
      for (const [i, name] of names.entries()) {
        const st = stats[i]
        if (!st || this.closed) continue
        const path = join(dir, name)
        reported.push(path)
        out.push({ name: this.rel(path), type: EventType.CREATE })
        // Written before its folder was watched: the write is reported as inotify would have.
        if (st.isFile() && st.size > 0) out.push({ name: this.rel(path), type: EventType.WRITE })
        if (st.isDirectory()) await visit(path)
      }
    }
    await visit(top)
    // Their own CREATE, if they were made after the watch, is in a batch read by the next one.
    const last = this.received + 1
    for (const path of reported) this.scanned.set(path, last)
  }

  /** Watches `dir`; false when it is gone or no longer a directory. */
  private watchIfThere(dir: string): boolean {
    try {
      this.watch(dir)
      return true
    } catch (err) {
      const code = errnoCode(err)
      if (code === 'ENOENT' || code === 'ENOTDIR') return false
      if (code !== undefined) throw internal(`error watching directory ${dir}: ${messageOf(err)}`)
      throw err
    }
  }

  private watch(dir: string): void {
    if (this.closed) return
    if (!this.wds.has(dir) && this.wds.size >= this.maxDirs) throw tooLarge(this.root, this.maxDirs)
    const wd = this.inotify.add(this.client, dir, watchMask | IN.ONLYDIR | IN.DONT_FOLLOW)
    const known = this.dirs.get(wd)
    // The same directory under a second path (a bind mount): its events keep their first name.
    if (known !== undefined && known !== dir) return
    const old = this.wds.get(dir)
    if (old !== undefined && old !== wd) {
      this.inotify.remove(this.client, old)
      this.dirs.delete(old)
    }
    this.wds.set(dir, wd)
    this.dirs.set(wd, dir)
  }

  /** The kernel dropped a watch (its directory went): forget it. */
  private unmap(wd: number): void {
    const dir = this.dirs.get(wd)
    this.dirs.delete(wd)
    if (dir !== undefined && this.wds.get(dir) === wd) this.wds.delete(dir)
  }

  /** Stops watching `path` and everything below it. */
  private unwatchTree(path: string): void {
    const prefix = `${path}/`
    for (const [dir, wd] of this.wds) {
      if (dir !== path && !dir.startsWith(prefix)) continue
      this.inotify.remove(this.client, wd)
      this.wds.delete(dir)
      this.dirs.delete(wd)
    }
  }

  /** A directory moved within the tree: its watches follow it (inotify's follow the inode). */
  private moveTree(from: string, to: string): void {
    if (from === to) return
    const prefix = `${from}/`
    const moved: [string, number][] = []
    for (const [dir, wd] of this.wds) {
      if (dir !== from && !dir.startsWith(prefix)) continue
      this.wds.delete(dir)
      moved.push([to + dir.slice(from.length), wd])
    }
    this.unwatchTree(to)
    for (const [dir, wd] of moved) {
      this.wds.set(dir, wd)
      this.dirs.set(wd, dir)
    }
  }

  private unwatchAll(): void {
    for (const wd of this.wds.values()) this.inotify.remove(this.client, wd)
    this.wds.clear()
    this.dirs.clear()
    this.scanned.clear()
  }
}
