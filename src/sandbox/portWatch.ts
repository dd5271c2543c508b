import { Subscribers } from '../common/Subscribers'
import type { PortOwner } from './portOwners'
import type { ListeningPort } from './sandboxPorts'

/**
 * How often the tables are read while followed: two reads of a few KiB, so that a port shows
 * well within a second of opening (`npm run bench -- ports`).
 */
const lookEveryMs = 500

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
 * The sandbox's listening ports, looked at twice a second while anyone follows them, the sandbox
 * runs and the page is visible: one look serves the ports panel, the preview and the embed's
 * events. Each new socket's process is asked for once (a command in the sandbox), not at every
 * look; one that cannot be found stays without. A failed look changes nothing. Undefined until
 * the first look.
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
  private readonly everyMs: number
  private readonly findOwners: FindOwners | undefined

  constructor(
    private readonly list: () => Promise<ListeningPort[]>,
    private readonly running: () => boolean,
    { everyMs = lookEveryMs, findOwners }: { everyMs?: number; findOwners?: FindOwners } = {},
  ) {
    this.everyMs = everyMs
    this.findOwners = findOwners
  }

  getSnapshot = (): ListeningPort[] | undefined => this.ports

  subscribe = (listener: () => void): (() => void) => {
    const remove = this.subscribers.add(listener)
    if (++this.following === 1 && !this.looking) void this.look()
    let removed = false
    return () => {
      if (removed) return
      removed = true
      remove()
      if (--this.following === 0) clearTimeout(this.timer)
    }
  }

  private async look(): Promise<void> {
    clearTimeout(this.timer)
    this.looking = true
    const visible = typeof document === 'undefined' || document.visibilityState === 'visible'
    if (this.running() && visible) {
      try {
        // A new port shows at once; its process follows when the sandbox has told it.
        const ports = await this.list()
        this.show(ports)
        if (await this.learnOwners(ports)) this.show(ports)
      } catch {}
    }
    this.looking = false
    if (this.following > 0) this.timer = setTimeout(() => void this.look(), this.everyMs)
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
