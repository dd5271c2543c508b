import { describe, expect, it, vi } from 'vitest'
import { SandboxActivity, typingPauseMs, yieldToTypingMs } from './sandboxActivity'

describe('SandboxActivity', () => {
  it('keeps the last moment of activity and tells its followers at most once a second', () => {
    let now = 0
    const activity = new SandboxActivity(() => now)
    let told = 0
    const stop = activity.subscribe(() => told++)
    expect(activity.last).toBe(Number.NEGATIVE_INFINITY)
    // A flood: an event every millisecond for 2.5 s.
    for (; now < 2500; now++) activity.note()
    expect(activity.last).toBe(2499)
    expect(told).toBe(3)
    stop()
    activity.note()
    expect(told).toBe(3)
  })

  it('tells how long until typing pauses, and counts a keystroke as activity', () => {
    let now = 0
    const activity = new SandboxActivity(() => now)
    expect(activity.untilTypingPauses()).toBe(0)
    activity.note() // output is not typing
    expect(activity.untilTypingPauses()).toBe(0)
    now = 1000
    activity.typed()
    expect(activity.last).toBe(1000)
    now = 1100
    expect(activity.untilTypingPauses()).toBe(typingPauseMs - 100)
    now = 1000 + typingPauseMs
    expect(activity.untilTypingPauses()).toBe(0)
    // Enter: a command starts, typing has paused.
    activity.typed()
    expect(activity.untilTypingPauses()).toBe(typingPauseMs)
    activity.typed(true)
    expect(activity.untilTypingPauses()).toBe(0)
    expect(activity.last).toBe(now)
  })

  it('waits for a pause in typing, or for its longest wait while typing goes on', async () => {
    vi.useFakeTimers({ now: 0 })
    try {
      const activity = new SandboxActivity()
      /** Asked at the first of keys typed `typeEveryMs` apart until `untilMs`: when it resolves. */
      const resolvedAt = async (typeEveryMs: number, untilMs: number) => {
        let at: number | undefined
        const start = Date.now()
        if (untilMs > 0) activity.typed()
        const paused = activity.pauseInTyping().then(() => {
          at = Date.now() - start
        })
        for (let t = typeEveryMs; t < untilMs; t += typeEveryMs) {
          await vi.advanceTimersByTimeAsync(typeEveryMs)
          activity.typed()
        }
        await vi.advanceTimersByTimeAsync(5000)
        await paused
        return at
      }
      // Nobody typing: at once.
      expect(await resolvedAt(1000, 0)).toBe(0)
      // Keys every 100 ms for 600 ms: the last at 500, the pause 250 ms later.
      expect(await resolvedAt(100, 600)).toBe(500 + typingPauseMs)
      // Keys every 100 ms for 5 s: no pause, so no longer than the longest wait.
      expect(await resolvedAt(100, 5000)).toBe(yieldToTypingMs)
      // Enter 50 ms after a key: a command starts, and the wait ends with it.
      activity.typed()
      let endedAt: number | undefined
      const start = Date.now()
      void activity.pauseInTyping().then(() => {
        endedAt = Date.now() - start
      })
      await vi.advanceTimersByTimeAsync(50)
      activity.typed(true)
      await vi.advanceTimersByTimeAsync(0)
      expect(endedAt).toBe(50)
    } finally {
      vi.useRealTimers()
    }
  })
})
