import { Subscribers } from '../common/Subscribers'
import type { ListeningPort } from './sandboxPorts'

/** A port opens and shows within this long. */
const lookEveryMs = 2000

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
 * The sandbox's listening ports, looked at every 2 s while anyone follows them, the sandbox runs
 * and the page is visible: one look serves the ports panel, the preview and the embed's events.
 * A failed look changes nothing. Undefined until the first look.
 */
export class PortWatch {
  private ports: ListeningPort[] | undefined
  private readonly subscribers = new Subscribers()
  private following = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  /** A look is under way: a follower who comes back meanwhile starts no second loop. */
  private looking = false

  constructor(
    private readonly list: () => Promise<ListeningPort[]>,
    private readonly running: () => boolean,
    private readonly everyMs = lookEveryMs,
  ) {}

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
        const ports = await this.list()
        const changed = !this.ports || JSON.stringify(ports) !== JSON.stringify(this.ports)
        this.ports = ports
        if (changed) this.subscribers.notify()
      } catch {}
    }
    this.looking = false
    if (this.following > 0) this.timer = setTimeout(() => void this.look(), this.everyMs)
  }
}
