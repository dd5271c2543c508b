// At most `size` at once, the rest in the order they came; a failure frees its slot, and work
// whose signal aborts while it waits leaves the line.
import { describe, expect, it } from 'vitest'
import { Slots } from './graderSlots'

describe('Slots', () => {
  it('runs at most its size at once, in order, and a failure frees the slot', async () => {
    const slots = new Slots(2)
    let running = 0
    let most = 0
    const started: number[] = []
    const work = (i: number) =>
      slots.run(async () => {
        started.push(i)
        running++
        most = Math.max(most, running)
        await new Promise((resolve) => setTimeout(resolve, 5))
        running--
        if (i === 1) throw new Error('failed')
        return i
      })
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(work))
    expect(most).toBe(2)
    expect(started).toEqual([1, 2, 3, 4, 5])
    expect(results.map((r) => r.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ])
    expect(slots.load).toEqual({ running: 0, waiting: 0 })
  })
  it('takes work out of the line when its signal aborts, and the slot goes to the next', async () => {
    const slots = new Slots(1)
    let release = () => {}
    const first = slots.run(() => new Promise<string>((resolve) => (release = () => resolve('first'))))
    const cancelled = new AbortController()
    const started: string[] = []
    const second = slots.run(async () => {
      started.push('second')
      return 'second'
    }, cancelled.signal)
    const third = slots.run(async () => {
      started.push('third')
      return 'third'
    })
    expect(slots.load).toEqual({ running: 1, waiting: 2 })
    cancelled.abort(new Error('deleted'))
    await expect(second).rejects.toThrow('deleted')
    expect(slots.load).toEqual({ running: 1, waiting: 1 })
    release()
    expect(await Promise.all([first, third])).toEqual(['first', 'third'])
    expect(started).toEqual(['third'])
    expect(slots.load).toEqual({ running: 0, waiting: 0 })
    // Already aborted: it never waits.
    await expect(slots.run(async () => 'late', cancelled.signal)).rejects.toThrow('deleted')
    expect(slots.load).toEqual({ running: 0, waiting: 0 })
  })
  it('refuses a size below one', () => {
    expect(() => new Slots(0)).toThrow('slots must be 1 or more')
  })
})
