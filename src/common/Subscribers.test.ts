import { describe, expect, it } from 'vitest'
import { Subscribers } from './Subscribers'

describe('Subscribers', () => {
  it('calls each listener on notify until it unsubscribes, and none after clear', () => {
    const subscribers = new Subscribers()
    const calls: string[] = []
    const stopA = subscribers.add(() => calls.push('a'))
    subscribers.add(() => calls.push('b'))
    subscribers.notify()
    stopA()
    subscribers.notify()
    subscribers.clear()
    subscribers.notify()
    expect(calls).toEqual(['a', 'b', 'b'])
  })

  it('lets a listener unsubscribe another while being notified: that one is not called', () => {
    const subscribers = new Subscribers()
    const calls: string[] = []
    let stopB = () => {}
    subscribers.add(() => {
      calls.push('a')
      stopB()
    })
    stopB = subscribers.add(() => calls.push('b'))
    subscribers.notify()
    subscribers.notify()
    expect(calls).toEqual(['a', 'a'])
  })
})
