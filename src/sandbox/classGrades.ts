import { gradebookApi } from '../api/gradebookApi'
import type { ClassPlace } from '../api/ideApi'
import type { Gradebook, RegradeAnswer, SubmissionDetail, SubmissionsDeleted } from '../contract/gradebook'
import type { SimilarityReport } from '../contract/similarity'
import { mapped } from './sandboxError'

/**
 * The teacher's gradebook of a class (the owner's sign-in only), the stack's own or one on E2B
 * (`place`): the stack keeps and grades the submissions of both. Failures are SandboxErrors with
 * the stack's words.
 */
export const classGrades = {
  /** Each student's counted score per lab, attempts and submissions. */
  grades: (place: ClassPlace, name: string): Promise<Gradebook> =>
    mapped(() => gradebookApi.grades(place, name)),
  /** One submission: its files, its grade with the grader's output, its diff against the starting files. */
  submission: (
    place: ClassPlace,
    name: string,
    sandboxId: string,
    submissionId: string,
  ): Promise<SubmissionDetail> => mapped(() => gradebookApi.submission(place, name, sandboxId, submissionId)),
  /** Grades every stored submission again (of one lab, or all) against the lab as it is now. */
  regrade: (place: ClassPlace, name: string, lab?: string): Promise<RegradeAnswer> =>
    mapped(() => gradebookApi.regrade(place, name, lab)),
  /** The most similar pairs of the students' latest submissions of a lab: pointers, never a verdict. */
  similar: (place: ClassPlace, name: string, lab: string): Promise<SimilarityReport> =>
    mapped(() => gradebookApi.similar(place, name, lab)),
  /** Deletes one submission for good (its snapshot too). */
  deleteSubmission: (
    place: ClassPlace,
    name: string,
    sandboxId: string,
    submissionId: string,
  ): Promise<void> => mapped(() => gradebookApi.deleteSubmission(place, name, sandboxId, submissionId)),
  /** Deletes every submission of one student for one lab. */
  deleteSubmissions: (
    place: ClassPlace,
    name: string,
    student: string,
    lab: string,
  ): Promise<SubmissionsDeleted> => mapped(() => gradebookApi.deleteSubmissions(place, name, student, lab)),
}
