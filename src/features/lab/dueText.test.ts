// The lab panel's words for the time left: counted down when close, a day and time when not,
// and what follows the deadline by the class's rules.
import { describe, expect, it } from 'vitest'
import type { DueView } from '../../contract/deadlines'
import { dueText } from './dueText'

/** Local times, so the day names hold in any time zone the tests run in. */
const local = (day: number, hour: number, minute = 0) => new Date(2026, 2, day, hour, minute).getTime()
const due = (dueAt: number | null, more: Partial<DueView> = {}): DueView => ({
  dueAt: dueAt === null ? null : new Date(dueAt).toISOString(),
  extended: false,
  late: { kind: 'refuse' },
  examMode: false,
  now: new Date().toISOString(),
  ...more,
})

describe('dueText', () => {
  it('counts hours and minutes when the deadline is close', () => {
    const at = local(2, 17)
    expect(dueText(due(at), at - (2 * 60 + 13) * 60_000 - 30_000, 'en-GB')).toEqual({
      text: 'Due in 2 h 13 min.',
      standing: 'open',
    })
    expect(dueText(due(at), at - 45 * 60_000, 'en-GB')?.text).toBe('Due in 45 min.')
    expect(dueText(due(at), at - 3 * 60 * 60_000, 'en-GB')?.text).toBe('Due in 3 h.')
    expect(dueText(due(at), at - 20_000, 'en-GB')?.text).toBe('Due in less than a minute.')
  })

  it('says the day and time when it is further', () => {
    expect(dueText(due(local(3, 17)), local(2, 8), 'en-GB')?.text).toBe('Due tomorrow 17:00.')
    expect(dueText(due(local(2, 23)), local(2, 8), 'en-GB')?.text).toBe('Due today 23:00.')
    expect(dueText(due(local(6, 17)), local(2, 8), 'en-GB')?.text).toBe('Due Friday 17:00.')
    expect(dueText(due(local(20, 9, 30)), local(2, 8), 'en-GB')?.text).toBe('Due 20 Mar 09:30.')
  })

  it("says an extension is the student's own, and that an exam's sandbox closes", () => {
    expect(dueText(due(local(3, 17), { extended: true, examMode: true }), local(2, 8), 'en-GB')?.text).toBe(
      'Due tomorrow 17:00 (your extension). Your sandbox closes then.',
    )
  })

  it('says what follows the deadline: closed, or late work and its penalty', () => {
    const at = local(2, 17)
    expect(dueText(due(at), at)).toEqual({ text: 'Closed: the deadline has passed.', standing: 'closed' })
    expect(dueText(due(at, { late: { kind: 'late', penaltyPercentPerDay: 10 } }), at + 1)).toEqual({
      text: 'Past due: late submissions lose 10% a day.',
      standing: 'late',
    })
    expect(
      dueText(due(at, { late: { kind: 'late', penaltyPercentPerDay: 10 }, examMode: true }), at + 1)?.text,
    ).toBe('Past due: your sandbox is closed; late submissions lose 10% a day.')
  })

  it('says nothing for a class without a deadline', () => {
    expect(dueText(due(null), Date.now())).toBeUndefined()
  })
})
