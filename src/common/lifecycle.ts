/** Something that holds a resource (a stream, a timer, a listener) until it is disposed. */
export interface Disposable {
  dispose(): void
}

/** A disposable that calls `release` once, the first time it is disposed (an unsubscribe, say). */
export function toDisposable(release: () => void): Disposable {
  let released = false
  return {
    dispose: () => {
      if (released) return
      released = true
      release()
    },
  }
}

/**
 * What an object tears down when it goes, registered where each piece is made instead of listed
 * again in its `dispose`. Disposing it disposes everything added, last added first (what was made
 * later may use what was made before), and only once; something added after that is disposed at
 * once. One disposable that throws does not keep the rest: all are disposed, then its error is
 * thrown (several errors, as one AggregateError).
 */
export class DisposableStore implements Disposable {
  private items: Disposable[] = []
  private disposed = false

  /** Keeps `item` to dispose with the store (at once, if the store is disposed already); returns it. */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose()
    else this.items.push(item)
    return item
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    const items = this.items
    this.items = []
    const errors: unknown[] = []
    for (let i = items.length - 1; i >= 0; i--) {
      try {
        items[i]?.dispose()
      } catch (err) {
        errors.push(err)
      }
    }
    if (errors.length === 1) throw errors[0]
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables failed to dispose`)
  }
}
