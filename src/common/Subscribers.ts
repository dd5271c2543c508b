/**
 * The listeners of a store that React reads with useSyncExternalStore (or that other objects
 * follow): one implementation for every store of the IDE. `add` is a bound function, so a store
 * can hand it out as its `subscribe`.
 */
export class Subscribers {
  private readonly listeners = new Set<() => void>()

  /** Adds a listener; returns what removes it. */
  readonly add = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Calls every listener; one removed meanwhile is not called if its turn had not come. */
  notify(): void {
    for (const listener of this.listeners) listener()
  }

  clear(): void {
    this.listeners.clear()
  }
}
