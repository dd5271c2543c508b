import type { GradebookAttempt } from '../../contract/gradebook'

/** A submission's time, as the teacher reads it. */
export const when = (iso: string) =>
  new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })

/** "3 / 4", or that it has no grade. */
export function scoreText(attempt: GradebookAttempt | undefined): string {
  if (attempt?.score === undefined) return 'not graded'
  return `${attempt.score} / ${attempt.maxScore}`
}
