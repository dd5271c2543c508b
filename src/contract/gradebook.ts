// The teacher's gradebook of a class (/ide/api/classes/{name}/grades), shared by the stack, the
// dashboard and `npm run class -- --grades`, with its CSV: one writer, so the three agree.
import type { SubmissionTest } from './submissions'

/**
 * Which submission of a student's lab counts: the best-scored, or the last. Every class counts
 * the best for now; a class's deadline policy will choose (issue 42).
 */
export type GradePolicy = 'best' | 'last'

/** One submission as the gradebook refers to it. */
export interface GradebookAttempt {
  sandboxId: string
  submissionId: string
  submittedAt: string
  /** Absent while it has no grade (being graded, or its grading failed). */
  score?: number
  maxScore?: number
  /** Why it earned nothing whatever its tests say (cut at its time limit, no report). */
  problem?: string
}

/** One student's work on one lab. */
export interface GradebookRow {
  student: string
  /** The lab's template id. */
  lab: string
  /** The submission that counts, by the class's policy; absent without a graded one. */
  counted?: GradebookAttempt
  attempts: number
  lastSubmittedAt?: string
  /** Submitted after the deadline: always false until classes have deadlines. */
  late: boolean
  /** Every submission, oldest first. */
  submissions: GradebookAttempt[]
}

export interface Gradebook {
  className: string
  policy: GradePolicy
  /** The labs of its rows, sorted. */
  labs: string[]
  /** By student, then lab; a student of the class who submitted nothing has a row with no attempts. */
  rows: GradebookRow[]
}

/** A submission as the teacher reads it: its files, the grader's words, and what changed. */
export interface SubmissionDetail {
  submissionId: string
  sandboxId: string
  lab: string
  student: string
  className?: string
  submittedAt: string
  contentHash: string
  grade?: {
    score: number
    maxScore: number
    problem?: string
    exitCode: number
    status: string
    /** The last 8 KiB of the grader's output. */
    output: string
    tests: SubmissionTest[]
    /** Submitted paths the grader did not use (the lab's own stood instead). */
    ignored: string[]
  }
  /** The submitted files; `text` unless binary or beyond what one answer shows. */
  files: { path: string; size: number; text?: string; omitted?: 'binary' | 'too large' }[]
  /** A unified diff of the submitted files against the lab's starting files as they are now. */
  diff: string
}

/** What a regrade did. */
export interface RegradeAnswer {
  regraded: number
  /** Of those, how many got a different score. */
  changed: number
  /** Submissions that could not be graded again; each keeps its earlier grade. */
  failed: { sandboxId: string; submissionId: string; student: string; error: string }[]
}

/** The CSV's columns, in order. */
export const gradebookCsvHeader = ['student', 'lab', 'score', 'max', 'submitted_at', 'late'] as const

/**
 * A text cell a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, or a tab or carriage
 * return before one) gets a `'` in front, so a student named `=HYPERLINK(…)` stays a name (OWASP's
 * advice on CSV injection). Numbers are written by us and never start so.
 */
export function neutralised(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * The gradebook as CSV (RFC 4180: CRLF line ends, a header line): each student's counted score
 * per lab; a student without a graded submission has the score, max and time empty.
 */
export function gradebookCsv(book: Gradebook): string {
  const lines = [gradebookCsvHeader.join(',')]
  for (const row of book.rows) {
    const { counted } = row
    const cells = [
      neutralised(row.student),
      neutralised(row.lab),
      counted?.score === undefined ? '' : String(counted.score),
      counted?.maxScore === undefined ? '' : String(counted.maxScore),
      counted?.submittedAt ?? '',
      counted ? String(row.late) : '',
    ]
    lines.push(cells.map(csvField).join(','))
  }
  return `${lines.join('\r\n')}\r\n`
}
