import type { GradebookAttempt, GradebookRow } from '../../contract/gradebook'
import type { ClassPlace } from '../../sandbox/localStack'

/** The student's attempt at a lab the teacher is shown, and how the view moves on from it. */
export interface ShownSubmission {
  className: string
  /** Where the class is: the stack's own, or an E2B remote's. */
  place: ClassPlace
  row: GradebookRow
  attempt: GradebookAttempt
  /** Shows another attempt of the same student and lab. */
  onAttempt(attempt: GradebookAttempt): void
  onClose(): void
}
