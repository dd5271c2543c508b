// Which submission counts, and how rows are made: the best by share of the points (the later of
// two equal), or the last; ungraded attempts count as attempts only. With a deadline: on-time work
// wins, late work counts (reduced) only when none was on time, and an extension moves one student's.
import { describe, expect, it } from 'vitest'
import { type ClassDeadline, noDeadline } from '../../../../src/contract/deadlines'
import type { GradebookAttempt } from '../../../../src/contract/gradebook'
import { countedAttempt, type GradedSubmission, gradebookOf } from './gradebook'
import type { Grade } from './gradeSubmission'

const attempt = (id: string, score?: number, maxScore = 4): GradebookAttempt => ({
  sandboxId: 'sbx',
  submissionId: id,
  submittedAt: `2026-01-01T00:00:0${id}Z`,
  ...(score === undefined ? {} : { score, maxScore }),
})

const entry = (student: string, id: string, className: string, score?: number): GradedSubmission => ({
  submission: {
    id,
    sandboxId: `sbx${student}`,
    templateID: 'lab',
    student,
    className,
    submittedAt: `2026-01-01T00:00:0${id}Z`,
    contentHash: 'sha256:x',
    files: [],
  },
  ...(score === undefined ? {} : { grade: { score, maxScore: 4 } as Grade }),
})

describe('countedAttempt', () => {
  const attempts = [attempt('1', 3), attempt('2', 3), attempt('3', 1), attempt('4')]
  it('counts the best, the later of two equal, and never an ungraded one', () => {
    expect(countedAttempt(attempts, 'best')?.submissionId).toBe('2')
    expect(countedAttempt([attempt('1', 0, 0), attempt('2', 1, 10)], 'best')?.submissionId).toBe('2')
    expect(countedAttempt([attempt('1')], 'best')).toBeUndefined()
  })
  it('or the last graded one', () => {
    expect(countedAttempt(attempts, 'last')?.submissionId).toBe('3')
  })
})

describe('gradebookOf', () => {
  it("makes a row per student and lab of the class, another class's left out", () => {
    const book = gradebookOf(
      'monday',
      [entry('ben', '2', 'monday', 2), entry('ben', '1', 'monday'), entry('ada', '3', 'tuesday', 4)],
      [
        { student: 'student-10', lab: 'lab' },
        { student: 'student-9', lab: 'lab' },
        { student: 'ben', lab: 'lab' },
      ],
      noDeadline,
    )
    expect(book.rows.map((r) => [r.student, r.attempts, r.counted?.score])).toEqual([
      ['ben', 2, 2],
      ['student-9', 0, undefined],
      ['student-10', 0, undefined],
    ])
    expect(book.rows[0]?.lastSubmittedAt).toBe('2026-01-01T00:00:02Z')
    expect(book.rows[0]?.submissions.map((s) => s.submissionId)).toEqual(['1', '2'])
  })
})

describe('gradebookOf with a deadline', () => {
  const at = (student: string, id: string, submittedAt: string, score: number): GradedSubmission => ({
    submission: {
      id,
      sandboxId: `sbx${student}`,
      templateID: 'lab',
      student,
      className: 'monday',
      submittedAt,
      contentHash: 'sha256:x',
      files: [],
    },
    grade: { score, maxScore: 10 } as Grade,
  })
  const deadline = (more: Partial<ClassDeadline> = {}): ClassDeadline => ({
    deadline: '2026-03-01T17:00:00.000Z',
    late: { kind: 'late', penaltyPercentPerDay: 10 },
    counts: 'best',
    examMode: false,
    extensions: {},
    ...more,
  })
  const rowOf = (entries: GradedSubmission[], rules: ClassDeadline, student = 'ada') =>
    gradebookOf('monday', entries, [], rules).rows.find((r) => r.student === student)

  it('counts an on-time submission over a better late one, whatever the policy', () => {
    const entries = [at('ada', '1', '2026-03-01T16:00:00Z', 4), at('ada', '2', '2026-03-01T18:00:00Z', 10)]
    for (const counts of ['best', 'last'] as const) {
      const row = rowOf(entries, deadline({ counts }))
      expect(row?.counted?.submissionId, counts).toBe('1')
      expect(row?.late, counts).toBe(false)
    }
    // The late one is listed with its days and what it would count for, its raw score kept.
    expect(rowOf(entries, deadline())?.submissions[1]).toMatchObject({
      score: 10,
      daysLate: 1,
      countedScore: 9,
    })
  })

  it('chooses best or last among the on-time ones only', () => {
    const entries = [
      at('ada', '1', '2026-03-01T10:00:00Z', 8),
      at('ada', '2', '2026-03-01T16:59:59Z', 5),
      at('ada', '3', '2026-03-02T10:00:00Z', 10),
    ]
    expect(rowOf(entries, deadline({ counts: 'best' }))?.counted?.submissionId).toBe('1')
    expect(rowOf(entries, deadline({ counts: 'last' }))?.counted?.submissionId).toBe('2')
  })

  it('counts a late one only when none was on time, less its penalty per started day', () => {
    const entries = [
      at('ada', '1', '2026-03-01T17:00:01Z', 6), // a second late is one day: 6 × 0.9
      at('ada', '2', '2026-03-03T17:00:01Z', 10), // three started days: 10 × 0.7
    ]
    const best = rowOf(entries, deadline())
    expect(best?.counted).toMatchObject({ submissionId: '2', score: 10, daysLate: 3, countedScore: 7 })
    expect(best?.late).toBe(true)
    expect(rowOf(entries, deadline({ counts: 'last' }))?.counted?.submissionId).toBe('2')
    // The best by what it counts for: 8 two days late (6.4) over 7 one day late (6.3).
    const close = [at('ada', '1', '2026-03-01T18:00:00Z', 7), at('ada', '2', '2026-03-02T18:00:00Z', 8)]
    expect(rowOf(close, deadline())?.counted).toMatchObject({ submissionId: '2', countedScore: 6.4 })
    const steep = deadline({ late: { kind: 'late', penaltyPercentPerDay: 40 } })
    // 7 × 0.6 = 4.2 against 8 × 0.2 = 1.6: the earlier one counts.
    expect(rowOf(close, steep)?.counted).toMatchObject({ submissionId: '1', countedScore: 4.2 })
  })

  it('never takes a penalty below zero', () => {
    const row = rowOf([at('ada', '1', '2026-03-20T18:00:00Z', 10)], deadline())
    expect(row?.counted).toMatchObject({ daysLate: 20, countedScore: 0 })
  })

  it('counts no late submission in a class that refuses them (the deadline moved after it came)', () => {
    const row = rowOf([at('ada', '1', '2026-03-02T18:00:00Z', 10)], deadline({ late: { kind: 'refuse' } }))
    expect(row?.counted).toBeUndefined()
    expect(row?.attempts).toBe(1)
    expect(row?.submissions[0]).toMatchObject({ daysLate: 2 })
    expect(row?.submissions[0]?.countedScore).toBeUndefined()
  })

  it("moves one student's deadline with an extension, and says so", () => {
    const entries = [at('ada', '1', '2026-03-02T12:00:00Z', 10), at('ben', '2', '2026-03-02T12:00:00Z', 10)]
    const rules = deadline({ extensions: { ada: '2026-03-03T17:00:00.000Z' } })
    const ada = rowOf(entries, rules, 'ada')
    expect(ada).toMatchObject({ late: false, dueAt: '2026-03-03T17:00:00.000Z', extended: true })
    expect(ada?.counted?.daysLate).toBeUndefined()
    const ben = rowOf(entries, rules, 'ben')
    expect(ben).toMatchObject({ late: true, dueAt: '2026-03-01T17:00:00.000Z' })
    expect(ben?.extended).toBeUndefined()
    expect(ben?.counted?.countedScore).toBe(9)
  })

  it('has everything on time without a deadline', () => {
    const row = rowOf([at('ada', '1', '2030-01-01T00:00:00Z', 3)], noDeadline)
    expect(row).toMatchObject({ late: false, counted: { score: 3 } })
    expect(row?.dueAt).toBeUndefined()
  })
})
