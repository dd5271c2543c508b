import { Subscribers } from '../common/Subscribers'
/** A command waiting for the user's yes or no. */
export interface ConsentRequest {
  command: string
  /** Who asks: the parent page's origin, or the embed URL. */
  requester: string
}

/**
 * Commands that need the user's agreement, asked one at a time in arrival order. The dialog
 * shows the head of the queue; `answer` settles it.
 */
export class ConsentQueue {
  private queue: { request: ConsentRequest; settle(yes: boolean): void }[] = []
  private readonly subscribers = new Subscribers()

  subscribe = this.subscribers.add

  getSnapshot = (): ConsentRequest | undefined => this.queue[0]?.request

  /** Resolves true when the user agrees to run the command. */
  ask(request: ConsentRequest): Promise<boolean> {
    return new Promise((settle) => {
      this.queue.push({ request, settle })
      if (this.queue.length === 1) this.changed()
    })
  }

  answer(yes: boolean): void {
    const head = this.queue.shift()
    head?.settle(yes)
    this.changed()
  }

  private changed(): void {
    this.subscribers.notify()
  }
}
