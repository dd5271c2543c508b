// Which submission counts, and how rows are made: the best by share of the points (the later of
// two equal), or the last; ungraded attempts count as attempts only.
import { describe, expect, it } from 'vitest'
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
      'best',
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
