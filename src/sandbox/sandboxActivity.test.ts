import { describe, expect, it } from 'vitest'
import { SandboxActivity, typingPauseMs } from './sandboxActivity'

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
})
