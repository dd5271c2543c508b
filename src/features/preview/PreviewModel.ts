import { Subscribers } from '../../common/Subscribers'

/** What the preview shows: a port of the sandbox and a path on it. */
export interface PreviewTarget {
  port: number
  path: string
  /** Bumped by every load, so the frame loads again even at the same address. */
  generation: number
  /** There are addresses before or after this one in the preview's history. */
  canGoBack: boolean
  canGoForward: boolean
}

/** One address the preview was given. */
interface Address {
  port: number
  path: string
}

/**
 * Which port of the sandbox the preview pane shows, if any, and the addresses it was given
 * (the address bar, a port's Preview, a link, a lab) for Back and Forward. The app's own link
 * clicks inside the frame stay in the frame's history: its origin is not the IDE's, so the IDE
 * cannot read or step it.
 */
export class PreviewModel {
  private target: PreviewTarget | undefined
  private history: Address[] = []
  private index = -1
  private generation = 0
  private readonly subscribers = new Subscribers()

  subscribe = this.subscribers.add

  getSnapshot = (): PreviewTarget | undefined => this.target

  /** Shows `port` (at `path`), opening the pane; a new address drops the ones Forward would reach. */
  open(port: number, path = '/'): void {
    const address = { port, path: path.startsWith('/') ? path : `/${path}` }
    const current = this.history[this.index]
    if (!current || current.port !== address.port || current.path !== address.path) {
      this.history = [...this.history.slice(0, this.index + 1), address]
      this.index = this.history.length - 1
    }
    this.show()
  }

  back(): void {
    if (this.index > 0) this.index--
    this.show()
  }

  forward(): void {
    if (this.index < this.history.length - 1) this.index++
    this.show()
  }

  /** Loads the page again (a save, the reload button, the port coming back). */
  reload(): void {
    if (this.target) this.show()
  }

  close(): void {
    this.history = []
    this.index = -1
    this.target = undefined
    this.subscribers.notify()
  }

  private show(): void {
    const address = this.history[this.index]
    if (!address) return
    this.target = {
      ...address,
      generation: ++this.generation,
      canGoBack: this.index > 0,
      canGoForward: this.index < this.history.length - 1,
    }
    this.subscribers.notify()
  }
}
