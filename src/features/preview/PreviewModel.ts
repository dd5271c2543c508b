import { Subscribers } from '../../common/Subscribers'

/** What the preview shows: a port of the sandbox and a path on it. */
export interface PreviewTarget {
  port: number
  path: string
  /** Bumped by every reload, so the frame loads again even at the same address. */
  generation: number
}

/** Which port of the sandbox the preview pane shows, if any. */
export class PreviewModel {
  private target: PreviewTarget | undefined
  private readonly subscribers = new Subscribers()

  subscribe = this.subscribers.add

  getSnapshot = (): PreviewTarget | undefined => this.target

  /** Shows `port` (at `path`), opening the pane. */
  open(port: number, path = '/'): void {
    this.set({
      port,
      path: path.startsWith('/') ? path : `/${path}`,
      generation: (this.target?.generation ?? 0) + 1,
    })
  }

  /** Loads the page again (a save, the reload button, the port coming back). */
  reload(): void {
    if (this.target) this.set({ ...this.target, generation: this.target.generation + 1 })
  }

  close(): void {
    this.set(undefined)
  }

  private set(target: PreviewTarget | undefined): void {
    this.target = target
    this.subscribers.notify()
  }
}
