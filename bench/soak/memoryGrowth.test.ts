import { describe, expect, it } from 'vitest'
import { growth, type Point, perMinute } from './memoryGrowth'

const minute = 60_000
/** A sample every 10 s for `minutes`, of `value(at)`. */
const every10s = (minutes: number, value: (at: number) => number): Point[] =>
  Array.from({ length: minutes * 6 }, (_, i) => ({
    at: i * 10_000 + 5_000,
    value: value(i * 10_000 + 5_000),
  }))

describe('memory growth over a soak', () => {
  it('takes each minute as the median of its samples, so one spike does not stand for it', () => {
    const points = every10s(2, () => 100)
    points[2] = { at: points[2]?.at ?? 0, value: 900 }
    expect(perMinute(points, 3)).toEqual([100, 100, undefined])
  })

  it('compares the last minute with minute 10 in a run of 20 minutes or more', () => {
    // 100 MB until minute 10, then up by 1 MB a minute: minute 30 is 120.
    const points = every10s(30, (at) => 100 + Math.max(0, Math.floor(at / minute) - 9))
    const found = growth(points, 30 * minute)
    expect(found).toMatchObject({ from: 100, to: 120, how: 'minute 30 against minute 10' })
    expect(found.percent).toBeCloseTo(20)
  })

  it('ignores what grows during the first ten minutes of a long run', () => {
    const points = every10s(25, (at) => (at < 9 * minute ? 50 + at / minute : 200))
    expect(growth(points, 25 * minute).percent).toBe(0)
  })

  it('compares the halves after a 20% warm-up in a shorter run, and says so', () => {
    // 3 minutes: warm-up to 36 s, halves split at 108 s.
    const points = every10s(3, (at) => (at < 36_000 ? 10 : at < 108_000 ? 100 : 110))
    const found = growth(points, 3 * minute)
    expect(found).toMatchObject({ from: 100, to: 110 })
    expect(found.percent).toBeCloseTo(10)
    expect(found.how).toContain('20% warm-up')
  })

  it('refuses to compare halves it has no samples for', () => {
    expect(() => growth([{ at: 1000, value: 1 }], minute)).toThrow('too few samples')
  })
})
