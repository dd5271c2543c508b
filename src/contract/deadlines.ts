// A class's deadline and what follows from it (issue 42), shared by the stack (which enforces
// and counts), the dashboard (where the teacher sets it) and the lab panel (which shows the time
// left): the types and the little arithmetic all three must agree on.
import type { GradePolicy } from './gradebook'

/**
 * What a submission after the deadline gets: refused, or taken and marked late, its counted score
 * reduced by `penaltyPercentPerDay` for every day it started late (its raw score kept).
 */
export type LatePolicy = { kind: 'refuse' } | { kind: 'late'; penaltyPercentPerDay: number }

/** A class's deadline, as the teacher sets it (the stack keeps it in `<data>/class-deadlines.json`). */
export interface ClassDeadline {
  /** ISO time; absent: the class has no deadline (every submission is on time). */
  deadline?: string
  late: LatePolicy
  /** Which of a student's on-time submissions counts: the best-scored or the last. */
  counts: GradePolicy
  /** After a student's own deadline their sandbox is paused and stays so for them (see docs/classroom.md). */
  examMode: boolean
  /** A student's own deadline, by student name: it stands instead of the class's. */
  extensions: Record<string, string>
}

/** A class with nothing set: no deadline, the best submission counts. */
export const noDeadline: ClassDeadline = {
  late: { kind: 'refuse' },
  counts: 'best',
  examMode: false,
  extensions: {},
}

/** What a student's lab panel is told of their deadline (GET /ide/api/sandboxes/{id}/deadline). */
export interface DueView {
  /** Their own deadline (the class's, or their extension); null when there is none. */
  dueAt: string | null
  /** The deadline is an extension of theirs. */
  extended: boolean
  late: LatePolicy
  examMode: boolean
  /** The stack's clock when it answered: the page counts from it, not from its own clock. */
  now: string
}

/** A student's deadline: their extension, else the class's; undefined when there is none. */
export function dueOf(deadline: ClassDeadline, student: string): string | undefined {
  return Object.hasOwn(deadline.extensions, student) ? deadline.extensions[student] : deadline.deadline
}

const dayMs = 24 * 60 * 60 * 1000

/** Days late, counting every started day (a minute late is one day); 0 on time or with no deadline. */
export function daysLate(submittedAt: string, due: string | undefined): number {
  if (due === undefined) return 0
  const over = Date.parse(submittedAt) - Date.parse(due)
  return over > 0 ? Math.ceil(over / dayMs) : 0
}

/** A late score less `percentPerDay` for each day late, never below 0, to hundredths of a point. */
export function penalisedScore(score: number, days: number, percentPerDay: number): number {
  const factor = Math.max(0, 1 - (days * percentPerDay) / 100)
  return Math.round(score * factor * 100) / 100
}

/**
 * What a submission at `submittedAt` counts for under the class's deadline: on time (`daysLate`
 * 0, its score), late and reduced (`countedScore`), or late under `refuse` (no `countedScore`:
 * it cannot count; such a one exists only when the teacher moved the deadline or the policy after).
 */
export function lateness(
  deadline: ClassDeadline,
  student: string,
  submittedAt: string,
  score: number | undefined,
): { daysLate: number; countedScore?: number } {
  const days = daysLate(submittedAt, dueOf(deadline, student))
  if (days === 0 || score === undefined) return { daysLate: days }
  if (deadline.late.kind === 'refuse') return { daysLate: days }
  return { daysLate: days, countedScore: penalisedScore(score, days, deadline.late.penaltyPercentPerDay) }
}
