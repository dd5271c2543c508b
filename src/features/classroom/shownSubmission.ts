import type { GradebookAttempt, GradebookRow } from '../../contract/gradebook'

/** The student's attempt at a lab the teacher is shown, and how the view moves on from it. */
export interface ShownSubmission {
  className: string
  row: GradebookRow
  attempt: GradebookAttempt
  /** Shows another attempt of the same student and lab. */
  onAttempt(attempt: GradebookAttempt): void
  onClose(): void
}
