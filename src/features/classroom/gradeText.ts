import type { GradebookAttempt } from '../../contract/gradebook'

/** A submission's time, as the teacher reads it. */
export const when = (iso: string) =>
  new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })

/** "3 / 4", or that it has no grade. */
export function scoreText(attempt: GradebookAttempt | undefined): string {
  if (attempt?.score === undefined) return 'not graded'
  return `${attempt.score} / ${attempt.maxScore}`
}

/** What the counted submission counts for: "3.2 / 4" for a late one less its penalty, else its score. */
export function countedText(attempt: GradebookAttempt | undefined): string {
  if (attempt?.countedScore === undefined) return scoreText(attempt)
  return `${attempt.countedScore} / ${attempt.maxScore}`
}

/** "late: 2 days (4 / 4 before the penalty)", "no", or "—" for a row with nothing counted. */
export function lateCell(attempt: GradebookAttempt | undefined): string {
  if (!attempt) return '—'
  if (!attempt.daysLate) return 'no'
  const days = `${attempt.daysLate} ${attempt.daysLate === 1 ? 'day' : 'days'}`
  return attempt.countedScore === undefined
    ? `late: ${days}`
    : `late: ${days} (${scoreText(attempt)} before the penalty)`
}
