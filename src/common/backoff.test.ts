import { describe, expect, it } from 'vitest'
import { backoffDelay } from './backoff'

describe('backoffDelay', () => {
  const policy = { initialMs: 1000, maxMs: 30_000, jitter: 0.2 }

  it('doubles from the initial delay up to the maximum', () => {
    const middle = () => 0.5
    expect([1, 2, 3, 4, 5, 6, 7].map((a) => backoffDelay(a, policy, middle))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ])
  })

  it('spreads each delay by the jitter either way', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(3200)
    expect(backoffDelay(3, policy, () => 1)).toBe(4800)
  })
})
