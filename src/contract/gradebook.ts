// The teacher's gradebook of a class (/ide/api/classes/{name}/grades), shared by the stack, the
// dashboard and `npm run class -- --grades`, with its CSV: one writer, so the three agree.
import type { LatePolicy } from './deadlines'
import type { SubmissionTest } from './submissions'

/**
 * Which on-time submission of a student's lab counts: the best-scored, or the last. The class
 * chooses (its deadline's `counts`); a late one counts only when none was on time.
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
  /** Started days after the student's deadline; absent when on time. */
  daysLate?: number
  /** A late one's score less the class's penalty (`score` stays the raw score); absent when on time or refused. */
  countedScore?: number
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
  /** The counted submission was late (no on-time one was graded). */
  late: boolean
  /** The student's deadline (their extension, else the class's). */
  dueAt?: string
  /** `dueAt` is an extension of theirs. */
  extended?: boolean
  /** Every submission, oldest first. */
  submissions: GradebookAttempt[]
}

export interface Gradebook {
  className: string
  policy: GradePolicy
  /** The class's deadline, when it has one, and what late work gets. */
  deadline?: string
  late: LatePolicy
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

/** What the counted submission counts for: a late one's score less its penalty, else its score. */
export function countedScoreOf(attempt: GradebookAttempt | undefined): number | undefined {
  return attempt?.countedScore ?? attempt?.score
}

/**
 * The gradebook as CSV (RFC 4180: CRLF line ends, a header line): each student's counted score
 * per lab (a late one's with its penalty taken off), and whether it was late; a student without
 * a graded submission has the score, max, time and late empty.
 */
export function gradebookCsv(book: Gradebook): string {
  const lines = [gradebookCsvHeader.join(',')]
  for (const row of book.rows) {
    const { counted } = row
    const cells = [
      neutralised(row.student),
      neutralised(row.lab),
      countedScoreOf(counted) === undefined ? '' : String(countedScoreOf(counted)),
      counted?.maxScore === undefined ? '' : String(counted.maxScore),
      counted?.submittedAt ?? '',
      counted ? String(row.late) : '',
    ]
    lines.push(cells.map(csvField).join(','))
  }
  return `${lines.join('\r\n')}\r\n`
}

/** What deleting a student's submissions of a lab did. */
export interface SubmissionsDeleted {
  deleted: number
}
