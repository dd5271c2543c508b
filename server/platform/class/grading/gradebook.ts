import { type ClassDeadline, dueOf, lateness } from '../../../../src/contract/deadlines'
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

/** A submission as the gradebook lists it; late (by the class's deadline, now) with what it counts for. */
export function attemptOf(
  { submission, grade }: GradedSubmission,
  deadline?: ClassDeadline,
): GradebookAttempt {
  const late = deadline && lateness(deadline, submission.student, submission.submittedAt, grade?.score)
  return {
    sandboxId: submission.sandboxId,
    submissionId: submission.id,
    submittedAt: submission.submittedAt,
    ...(grade
      ? { score: grade.score, maxScore: grade.maxScore, ...(grade.problem ? { problem: grade.problem } : {}) }
      : {}),
    ...(late?.daysLate ? late : {}),
  }
}

/** Its share of the points as it counts (a late one's with its penalty off). */
const fraction = (a: GradebookAttempt) => (a.maxScore ? (a.countedScore ?? a.score ?? 0) / a.maxScore : 0)

/**
 * The attempt that counts (oldest first in, graded ones only): among those on time, the last, or
 * the best by its share of the points (its max may differ from another's), the later of two equal
 * ones. A late one counts only when none on time was graded (as GitHub Classroom grades the last
 * commit before the deadline), chosen among the late ones the same way by its reduced score; one
 * the class refuses (no `countedScore`) never counts.
 */
export function countedAttempt(
  attempts: readonly GradebookAttempt[],
  policy: GradePolicy,
): GradebookAttempt | undefined {
  const graded = attempts.filter((a) => a.score !== undefined)
  const onTime = graded.filter((a) => !a.daysLate)
  const pool = onTime.length > 0 ? onTime : graded.filter((a) => a.countedScore !== undefined)
  if (policy === 'last') return pool.at(-1)
  return pool.reduce<GradebookAttempt | undefined>(
    (best, a) => (best === undefined || fraction(a) >= fraction(best) ? a : best),
    undefined,
  )
}

const byName = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true })

/**
 * A class's gradebook: a row per student and lab, from the submissions that name the class
 * (those of sandboxes since removed too) and, for students of the class who submitted nothing
 * yet, an empty row for their sandbox's lab. Lateness is by the deadline as it is now, so an
 * extension granted after a late submission makes it on time.
 */
export function gradebookOf(
  className: string,
  submissions: readonly GradedSubmission[],
  members: readonly { student: string; lab: string }[],
  deadline: ClassDeadline,
): Gradebook {
  const policy = deadline.counts
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
      .map((entry) => attemptOf(entry, deadline))
    const counted = countedAttempt(attempts, policy)
    const last = attempts.at(-1)
    const dueAt = dueOf(deadline, student)
    return {
      student,
      lab,
      ...(counted ? { counted } : {}),
      attempts: attempts.length,
      ...(last ? { lastSubmittedAt: last.submittedAt } : {}),
      late: Boolean(counted?.daysLate),
      ...(dueAt ? { dueAt } : {}),
      ...(Object.hasOwn(deadline.extensions, student) ? { extended: true } : {}),
      submissions: attempts,
    }
  })
  built.sort((a, b) => byName(a.student, b.student) || byName(a.lab, b.lab))
  return {
    className,
    policy,
    ...(deadline.deadline ? { deadline: deadline.deadline } : {}),
    late: deadline.late,
    labs: [...new Set(built.map((r) => r.lab))].sort(byName),
    rows: built,
  }
}
