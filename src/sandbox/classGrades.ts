import { gradebookApi } from '../api/gradebookApi'
import type { Gradebook, RegradeAnswer, SubmissionDetail, SubmissionsDeleted } from '../contract/gradebook'
import type { SimilarityReport } from '../contract/similarity'
import { mapped } from './sandboxError'

/**
 * The teacher's gradebook of one of the stack's own classes (the owner's sign-in only; grades are
 * kept by the stack, so a class on E2B has none). Failures are SandboxErrors with the stack's words.
 */
export const classGrades = {
  /** Each student's counted score per lab, attempts and submissions. */
  grades: (name: string): Promise<Gradebook> => mapped(() => gradebookApi.grades(name)),
  /** One submission: its files, its grade with the grader's output, its diff against the starting files. */
  submission: (name: string, sandboxId: string, submissionId: string): Promise<SubmissionDetail> =>
    mapped(() => gradebookApi.submission(name, sandboxId, submissionId)),
  /** Grades every stored submission again (of one lab, or all) against the lab as it is now. */
  regrade: (name: string, lab?: string): Promise<RegradeAnswer> =>
    mapped(() => gradebookApi.regrade(name, lab)),
  /** The most similar pairs of the students' latest submissions of a lab: pointers, never a verdict. */
  similar: (name: string, lab: string): Promise<SimilarityReport> =>
    mapped(() => gradebookApi.similar(name, lab)),
  /** Deletes one submission for good (its snapshot too). */
  deleteSubmission: (name: string, sandboxId: string, submissionId: string): Promise<void> =>
    mapped(() => gradebookApi.deleteSubmission(name, sandboxId, submissionId)),
  /** Deletes every submission of one student for one lab. */
  deleteSubmissions: (name: string, student: string, lab: string): Promise<SubmissionsDeleted> =>
    mapped(() => gradebookApi.deleteSubmissions(name, student, lab)),
}
