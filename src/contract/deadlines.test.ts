// The deadline's arithmetic the stack and the page share: started days late, the penalty, and
// which deadline is a student's.
import { describe, expect, it } from 'vitest'
import { type ClassDeadline, daysLate, dueOf, lateness, noDeadline, penalisedScore } from './deadlines'

const due = '2026-03-01T17:00:00.000Z'

describe('daysLate', () => {
  it('counts every started day, and nothing on time', () => {
    expect(daysLate('2026-03-01T16:59:59.999Z', due)).toBe(0)
    expect(daysLate(due, due)).toBe(0)
    expect(daysLate('2026-03-01T17:00:00.001Z', due)).toBe(1)
    expect(daysLate('2026-03-02T17:00:00.000Z', due)).toBe(1)
    expect(daysLate('2026-03-02T17:00:00.001Z', due)).toBe(2)
    expect(daysLate('2026-03-01T17:00:00.000Z', undefined)).toBe(0)
  })
})

describe('penalisedScore', () => {
  it('takes the percent off per day, to hundredths, never below 0', () => {
    expect(penalisedScore(10, 1, 10)).toBe(9)
    expect(penalisedScore(7, 3, 10)).toBe(4.9)
    expect(penalisedScore(3, 1, 33)).toBe(2.01)
    expect(penalisedScore(10, 11, 10)).toBe(0)
    expect(penalisedScore(10, 5, 0)).toBe(10)
  })
})

describe("a student's deadline", () => {
  const rules: ClassDeadline = {
    deadline: due,
    late: { kind: 'late', penaltyPercentPerDay: 25 },
    counts: 'best',
    examMode: false,
    extensions: { ada: '2026-03-04T17:00:00.000Z' },
  }

  it("is their extension, else the class's; a name like an object's own property is no extension", () => {
    expect(dueOf(rules, 'ada')).toBe('2026-03-04T17:00:00.000Z')
    expect(dueOf(rules, 'ben')).toBe(due)
    expect(dueOf(rules, 'constructor')).toBe(due)
    expect(dueOf(noDeadline, 'ada')).toBeUndefined()
  })

  it('makes a submission late, and what it counts for, by that deadline', () => {
    expect(lateness(rules, 'ben', '2026-03-02T18:00:00Z', 8)).toEqual({ daysLate: 2, countedScore: 4 })
    expect(lateness(rules, 'ada', '2026-03-02T18:00:00Z', 8)).toEqual({ daysLate: 0 })
    expect(lateness({ ...rules, late: { kind: 'refuse' } }, 'ben', '2026-03-02T18:00:00Z', 8)).toEqual({
      daysLate: 2,
    })
    expect(lateness(rules, 'ben', '2026-03-02T18:00:00Z', undefined)).toEqual({ daysLate: 2 })
  })
})
