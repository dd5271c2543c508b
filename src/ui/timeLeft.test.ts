import { describe, expect, it } from 'vitest'
import { msUntilLabelChanges, timeLeftLabel } from './timeLeft'

describe('timeLeftLabel', () => {
  it('shows whole minutes, rounded down, from two minutes up', () => {
    expect(timeLeftLabel(30 * 60_000)).toBe('30 min')
    expect(timeLeftLabel(30 * 60_000 - 1)).toBe('29 min')
    expect(timeLeftLabel(2 * 60_000)).toBe('2 min')
    expect(timeLeftLabel(65 * 60_000 + 59_999)).toBe('1 h 05 min')
    expect(timeLeftLabel(24 * 3_600_000)).toBe('24 h 00 min')
  })

  it('counts down by the second in the last two minutes, and stops at 0:00', () => {
    expect(timeLeftLabel(2 * 60_000 - 1)).toBe('1:59')
    expect(timeLeftLabel(61_000)).toBe('1:01')
    expect(timeLeftLabel(9_999)).toBe('0:09')
    expect(timeLeftLabel(0)).toBe('0:00')
    expect(timeLeftLabel(-5_000)).toBe('0:00')
  })
})

describe('msUntilLabelChanges', () => {
  it('is the time to the next whole minute, or second in the last two minutes', () => {
    expect(msUntilLabelChanges(29 * 60_000 + 12_345)).toBe(12_345)
    expect(msUntilLabelChanges(90_250)).toBe(250)
    // On a whole minute or second the label changes at once.
    expect(msUntilLabelChanges(30 * 60_000)).toBe(0)
    expect(msUntilLabelChanges(1000)).toBe(0)
  })

  it('agrees with the label: the same until that long has passed, another just after', () => {
    for (const left of [
      30 * 60_000 + 1,
      30 * 60_000,
      29 * 60_000 + 12_345,
      2 * 60_000 + 500,
      2 * 60_000,
      90_250,
      1500,
    ]) {
      const wait = msUntilLabelChanges(left) as number
      expect(timeLeftLabel(left - wait)).toBe(timeLeftLabel(left))
      expect(timeLeftLabel(left - wait - 1)).not.toBe(timeLeftLabel(left))
    }
  })

  it('is never once the time is up', () => {
    expect(msUntilLabelChanges(0)).toBeUndefined()
    expect(msUntilLabelChanges(-1)).toBeUndefined()
  })
})
