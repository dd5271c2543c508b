import { Subscribers } from '../common/Subscribers'

/**
 * Asks a view to take the keyboard (a shortcut that moves into a panel), once per request. The
 * view may not exist yet when asked (its panel was hidden, its code not loaded): it takes the
 * request when it mounts, and a request already taken is not taken again when it mounts anew.
 */
export class FocusRequest {
  private requested = 0
  private taken = 0
  private readonly subscribers = new Subscribers()

  subscribe = this.subscribers.add

  /** A number that changes with every request, for React to re-render on. */
  getSnapshot = (): number => this.requested

  request(): void {
    this.requested++
    this.subscribers.notify()
  }

  /** Whether the view should take the keyboard now: true once for each request. */
  take(): boolean {
    if (this.taken === this.requested) return false
    this.taken = this.requested
    return true
  }
}
