import type { RegradeAnswer } from '../../../../src/contract/gradebook'
import type { GradedSubmission } from './gradebook'
import { graderSlots, Slots } from './graderSlots'
import type { Grade } from './gradeSubmission'
import type { Submission } from './submissionStore'

/** What a regrade needs: the grader, and where grades are kept. */
export interface RegradeDeps {
  /** Grades a stored submission from its snapshot; undefined when it was deleted before or meanwhile. */
  grade(submission: Submission): Promise<Grade | undefined>
  /** Keeps its new grade; false when it was deleted meanwhile. */
  setGrade(submission: Submission, grade: Grade): boolean
}

/**
 * Grades stored submissions again, each from its snapshot (never changed) against its lab's
 * template as it is now, through the same grader as a Submit; each new grade replaces the old.
 * One that cannot be graded now keeps its grade and is listed with why; one the teacher deleted
 * meanwhile is left out, neither regraded nor failed. Only as many snapshots
 * are read at a time as graders run, so a large class is not all in memory at once.
 */
export async function regrade(
  entries: readonly GradedSubmission[],
  deps: RegradeDeps,
): Promise<RegradeAnswer> {
  const answer: RegradeAnswer = { regraded: 0, changed: 0, failed: [] }
  const reading = new Slots(graderSlots.size)
  await Promise.all(
    entries.map(({ submission, grade: before }) =>
      reading.run(async () => {
        try {
          const grade = await deps.grade(submission)
          if (!grade || !deps.setGrade(submission, grade)) return
          answer.regraded += 1
          if (before?.score !== grade.score || before?.maxScore !== grade.maxScore) answer.changed += 1
        } catch (err) {
          answer.failed.push({
            sandboxId: submission.sandboxId,
            submissionId: submission.id,
            student: submission.student,
            error: err instanceof Error ? err.message : String(err),
          })
        }
      }),
    ),
  )
  return answer
}
