import { onPageShown, pageVisible } from '../common/pageVisibility'
import { Subscribers } from '../common/Subscribers'
import type { PortOwner } from './portOwners'
import type { SandboxActivity } from './sandboxActivity'
import type { ListeningPort } from './sandboxPorts'

/**
 * How often the tables are read while the sandbox is busy: two reads of a few KiB, so that a port
 * shows well within a second of opening (`npm run bench -- ports`)...
 */
const lookEveryMs = 500
/**
 * ...and while it is quiet. Each look costs the runtime two reads of /proc/net, which walk the
 * kernel's socket tables, plus their calls: at the busy pace, most of what an idle open page cost.
 */
const quietLookEveryMs = 3000
/** How long after a keystroke or a terminal's output the sandbox counts as busy. */
const busyForMs = 15_000
/** What the watch learns of the sandbox at work. */
type ActivitySignal = Pick<SandboxActivity, 'last' | 'subscribe' | 'pauseInTyping'>

/** Finds the processes behind listening sockets, by inode. */
export type FindOwners = (inodes: number[]) => Promise<Map<number, PortOwner>>

/** Ports that opened and closed between two looks. */
export interface PortChanges {
  opened: number[]
  closed: number[]
}

/** Which ports of `next` are new since `previous`, and which of `previous` are gone. */
export function portChanges(previous: readonly ListeningPort[], next: readonly ListeningPort[]): PortChanges {
  const before = new Set(previous.map((p) => p.port))
  const now = new Set(next.map((p) => p.port))
  return {
    opened: [...now].filter((p) => !before.has(p)),
    closed: [...before].filter((p) => !now.has(p)),
  }
}

/**
 * The sandbox's listening ports, looked at while anyone follows them, the sandbox runs and the
 * page is visible: twice a second while the sandbox is busy or a follower waits on a port, every
 * few seconds while it is quiet, and soon after it wakes up. One look serves the ports panel, the
 * preview and the embed's events. Each new socket's process is asked for once (a command in the
 * sandbox), not at every look; one that cannot be found stays without. A failed look changes
 * nothing. Undefined until the first look.
 */
export class PortWatch {
  private ports: ListeningPort[] | undefined
  private readonly subscribers = new Subscribers()
  private following = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  /** A look is under way: a follower who comes back meanwhile starts no second loop. */
  private looking = false
  /** Owners by socket inode, null where the sandbox could not tell; only current sockets kept. */
  private owners = new Map<number, PortOwner | null>()
  /** When the next look is due (epoch ms), while one is scheduled. */
  private nextAt = 0
  /** Followers waiting on a port (a preview of a closed one): they keep the busy pace. */
  private waiting = 0
  private stopHearing: (() => void) | undefined
  private readonly everyMs: number
  private readonly quietEveryMs: number
  private readonly activity: ActivitySignal | undefined
  private readonly findOwners: FindOwners | undefined
  private readonly now: () => number

  constructor(
    private readonly list: () => Promise<ListeningPort[]>,
    private readonly running: () => boolean,
    {
      everyMs = lookEveryMs,
      quietEveryMs = quietLookEveryMs,
      activity,
      findOwners,
      now = Date.now,
    }: {
      everyMs?: number
      quietEveryMs?: number
      /** Without it, every look is at the busy pace. */
      activity?: ActivitySignal
      findOwners?: FindOwners
      now?: () => number
    } = {},
  ) {
    this.everyMs = everyMs
    this.quietEveryMs = quietEveryMs
    this.activity = activity
    this.findOwners = findOwners
    this.now = now
  }

  getSnapshot = (): ListeningPort[] | undefined => this.ports

  subscribe = (listener: () => void): (() => void) => {
    const remove = this.subscribers.add(listener)
    if (++this.following === 1) {
      this.stopHearing = this.hearWakeUps()
      if (!this.looking) void this.look()
    }
    let removed = false
    return () => {
      if (removed) return
      removed = true
      remove()
      if (--this.following === 0) {
        clearTimeout(this.timer)
        this.timer = undefined
        this.stopHearing?.()
      }
    }
  }

  /** Hurries the next look when the sandbox wakes up or the page comes into view; returns what stops it. */
  private hearWakeUps(): () => void {
    const stopActivity = this.activity?.subscribe(() => this.hurry())
    const stopShown = onPageShown(() => this.hurry())
    return () => {
      stopActivity?.()
      stopShown()
    }
  }

  /** A follower waits for a port to open: looks keep the busy pace until the returned function is called. */
  waitForPort(): () => void {
    this.waiting++
    this.hurry()
    let done = false
    return () => {
      if (!done) this.waiting--
      done = true
    }
  }

  /** The sandbox woke up (or a follower began to wait): a look due later than the busy pace comes sooner. */
  private hurry(): void {
    if (this.timer === undefined || this.nextAt - this.now() <= this.everyMs) return
    this.schedule(this.everyMs)
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer)
    this.nextAt = this.now() + ms
    this.timer = setTimeout(() => void this.look(), ms)
  }

  private busy(): boolean {
    return this.waiting > 0 || !this.activity || this.now() - this.activity.last < busyForMs
  }

  private async look(): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    this.looking = true
    // A look is two calls, and the echo of a key typed meanwhile waits behind them in the runtime
    // and the page: such keys' echoes took twice as long (p50 16 ms against 7 in a trace of 110
    // keys at a fast typist's pace). Ports open after a command starts, when typing has paused.
    await this.activity?.pauseInTyping()
    if (this.following > 0 && this.running() && pageVisible()) {
      try {
        // A new port shows at once; its process follows when the sandbox has told it.
        const ports = await this.list()
        this.show(ports)
        if (await this.learnOwners(ports)) this.show(ports)
      } catch {}
    }
    this.looking = false
    if (this.following > 0) this.schedule(this.busy() ? this.everyMs : this.quietEveryMs)
  }

  /** Publishes `ports` with the owners known so far, when anything changed. */
  private show(ports: ListeningPort[]): void {
    const shown = ports.map((p) => {
      const owner = this.owners.get(p.inode)
      return owner ? { ...p, owner } : p
    })
    if (this.ports && JSON.stringify(shown) === JSON.stringify(this.ports)) return
    this.ports = shown
    this.subscribers.notify()
  }

  /** Asks for the owners of sockets not seen before, and forgets those gone; true when it asked. */
  private async learnOwners(ports: ListeningPort[]): Promise<boolean> {
    const current = new Set(ports.map((p) => p.inode))
    for (const inode of this.owners.keys()) if (!current.has(inode)) this.owners.delete(inode)
    const unknown = ports.map((p) => p.inode).filter((inode) => inode > 0 && !this.owners.has(inode))
    if (!this.findOwners || unknown.length === 0) return false
    const found = await this.findOwners(unknown).catch(() => new Map<number, PortOwner>())
    for (const inode of unknown) this.owners.set(inode, found.get(inode) ?? null)
    return true
  }
}
