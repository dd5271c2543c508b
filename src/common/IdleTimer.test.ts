import { afterEach, describe, expect, it, vi } from 'vitest'
import { IdleTimer } from './IdleTimer'

afterEach(() => {
  vi.useRealTimers()
})

describe('IdleTimer', () => {
  it('fires once, its time after the last restart, with one timer set however often it is put off', async () => {
    vi.useFakeTimers({ now: 0 })
    const fired: number[] = []
    const timer = new IdleTimer(1000, () => fired.push(Date.now()))
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout')
    for (let i = 0; i < 100; i++) {
      timer.restart()
      await vi.advanceTimersByTimeAsync(10)
    }
    // 100 restarts, 10 ms apart: the last at 990, so it fires at 1990. Its timer, set at 0, found
    // the deadline moved at 1000 and waited the rest: two timers in all, not a hundred.
    await vi.advanceTimersByTimeAsync(5000)
    expect(fired).toEqual([1990])
    expect(setTimeoutSpy).toHaveBeenCalledTimes(2)
  })

  it('does not fire once stopped, and starts afresh after', async () => {
    vi.useFakeTimers({ now: 0 })
    const fired: number[] = []
    const timer = new IdleTimer(100, () => fired.push(Date.now()))
    timer.restart()
    await vi.advanceTimersByTimeAsync(50)
    timer.stop()
    await vi.advanceTimersByTimeAsync(500)
    expect(fired).toEqual([])
    timer.restart()
    await vi.advanceTimersByTimeAsync(500)
    expect(fired).toEqual([650])
  })
})
