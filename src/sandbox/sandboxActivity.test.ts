import { describe, expect, it } from 'vitest'
import { SandboxActivity } from './sandboxActivity'

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
})
