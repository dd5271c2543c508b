import { describe, expect, it } from 'vitest'
import { median, percentile, ratioInterval } from './table'

const evenly = (from: number, to: number, n: number) =>
  Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1))

describe('ratioInterval', () => {
  it('holds the ratio of the whole samples, and is the same every time', () => {
    const a = evenly(4, 20, 400)
    const b = evenly(5, 22, 400)
    const [low, high] = ratioInterval(a, b, (s) => percentile(s, 95))
    const whole = percentile(a, 95) / percentile(b, 95)
    expect(low).toBeLessThan(whole)
    expect(high).toBeGreaterThan(whole)
    expect(ratioInterval(a, b, (s) => percentile(s, 95))).toEqual([low, high])
  })

  it('is narrow for many steady samples and wide for a few scattered ones', () => {
    const width = ([low, high]: [number, number]) => high - low
    const steady = ratioInterval(evenly(9.9, 10.1, 800), evenly(9.9, 10.1, 800), median)
    const scattered = ratioInterval(evenly(2, 40, 12), evenly(2, 40, 12), median)
    expect(width(steady)).toBeLessThan(0.01)
    expect(width(scattered)).toBeGreaterThan(0.3)
  })

  it('refuses an empty side', () => {
    expect(() => ratioInterval([], [1], median)).toThrow(/samples on both sides/)
  })
})
