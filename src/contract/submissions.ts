// A graded lab's submissions as /ide/api/sandboxes/{id}/submissions answers them
// (server/platform/ide/submissionRoutes.ts): what the page shows a student of their work.

/** One test of a graded submission, as far as the lab's `feedback` lets its student see it. */
export interface SubmissionTest {
  name: string
  /** The report's classname (`test_main.TestAverage`), when it has one. */
  className?: string
  outcome: 'passed' | 'failed' | 'skipped'
  /** What the runner said of a failure or a skip: only with `"feedback": "messages"` (and for the teacher). */
  message?: string
  /** Points it earned, of `points`. */
  earned: number
  points: number
}

/** A submission's grade: the score always, the tests unless the lab shows the score only. */
export interface SubmissionGrade {
  score: number
  maxScore: number
  /** Why it earned nothing whatever its tests say (cut at its time limit, no report…). */
  problem?: string
  tests?: SubmissionTest[]
}

/** A submission and, once graded, its grade. */
export interface SubmissionView {
  id: string
  sandboxId: string
  /** The E2B remote the sandbox is on (graded there too); absent for the stack's own sandboxes. */
  remoteId?: string
  templateID: string
  student: string
  className?: string
  /** ISO time it was submitted. */
  submittedAt: string
  /** `sha256:` of its files: two submissions of the same work share it. */
  contentHash: string
  /** The paths submitted, relative to the home folder. */
  files: string[]
  grade?: SubmissionGrade
  /** Started days after the student's deadline (by the deadline as it is now); absent when on time. */
  daysLate?: number
  /** A late one's score less the class's penalty, which is what it counts for; absent when on time or refused. */
  countedScore?: number
}
