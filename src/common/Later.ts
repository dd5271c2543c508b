import { Subscribers } from './Subscribers'

/**
 * A value that arrives later (an object whose code is fetched after the page renders), which
 * React and other objects can wait on: undefined until it is set.
 */
export class Later<T> {
  private value: T | undefined
  private readonly subscribers = new Subscribers()

  subscribe = this.subscribers.add

  getSnapshot = (): T | undefined => this.value

  set(value: T): void {
    this.value = value
    this.subscribers.notify()
  }
}
