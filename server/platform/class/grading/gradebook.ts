import type {
  Gradebook,
  GradebookAttempt,
  GradebookRow,
  GradePolicy,
} from '../../../../src/contract/gradebook'
import type { Grade } from './gradeSubmission'
import type { Submission } from './submissionStore'

/** A stored submission and its grade, as the store lists them. */
export interface GradedSubmission {
  submission: Submission
  grade?: Grade
}

export function attemptOf({ submission, grade }: GradedSubmission): GradebookAttempt {
  return {
    sandboxId: submission.sandboxId,
    submissionId: submission.id,
    submittedAt: submission.submittedAt,
    ...(grade
      ? { score: grade.score, maxScore: grade.maxScore, ...(grade.problem ? { problem: grade.problem } : {}) }
      : {}),
  }
}

const fraction = (a: GradebookAttempt) => (a.maxScore ? (a.score ?? 0) / a.maxScore : 0)

/**
 * The attempt that counts (oldest first in, graded ones only): the last, or the best by its share
 * of the points (its max may differ from another's), the later of two equal ones.
 */
export function countedAttempt(
  attempts: readonly GradebookAttempt[],
  policy: GradePolicy,
): GradebookAttempt | undefined {
  const graded = attempts.filter((a) => a.score !== undefined)
  if (policy === 'last') return graded.at(-1)
  return graded.reduce<GradebookAttempt | undefined>(
    (best, a) => (best === undefined || fraction(a) >= fraction(best) ? a : best),
    undefined,
  )
}

const byName = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true })

/**
 * A class's gradebook: a row per student and lab, from the submissions that name the class
 * (those of sandboxes since removed too) and, for students of the class who submitted nothing
 * yet, an empty row for their sandbox's lab.
 */
export function gradebookOf(
  className: string,
  submissions: readonly GradedSubmission[],
  members: readonly { student: string; lab: string }[],
  policy: GradePolicy,
): Gradebook {
  const rows = new Map<string, { student: string; lab: string; entries: GradedSubmission[] }>()
  const rowOf = (student: string, lab: string) => {
    const key = JSON.stringify([student, lab])
    const row = rows.get(key) ?? { student, lab, entries: [] }
    rows.set(key, row)
    return row
  }
  for (const { student, lab } of members) rowOf(student, lab)
  for (const entry of submissions) {
    if (entry.submission.className !== className) continue
    rowOf(entry.submission.student, entry.submission.templateID).entries.push(entry)
  }
  const built: GradebookRow[] = [...rows.values()].map(({ student, lab, entries }) => {
    const attempts = entries
      .sort((a, b) => a.submission.submittedAt.localeCompare(b.submission.submittedAt))
      .map(attemptOf)
    const counted = countedAttempt(attempts, policy)
    const last = attempts.at(-1)
    return {
      student,
      lab,
      ...(counted ? { counted } : {}),
      attempts: attempts.length,
      ...(last ? { lastSubmittedAt: last.submittedAt } : {}),
      late: false,
      submissions: attempts,
    }
  })
  built.sort((a, b) => byName(a.student, b.student) || byName(a.lab, b.lab))
  return {
    className,
    policy,
    labs: [...new Set(built.map((r) => r.lab))].sort(byName),
    rows: built,
  }
}
