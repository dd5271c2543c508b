// The teacher's gradebook of a class of the stack's own (/ide/api/classes/{name}/…), apart from
// ideApi.ts so it loads with the dashboard's Gradebook tab, not with every page.
import type { Gradebook, RegradeAnswer, SubmissionDetail, SubmissionsDeleted } from '../contract/gradebook'
import type { SimilarityReport } from '../contract/similarity'
import { call } from './ideApi'

const classPath = (name: string) => `/classes/${encodeURIComponent(name)}`

export const gradebookApi = {
  grades: (name: string) => call<Gradebook>('GET', `${classPath(name)}/grades`),
  submission: (name: string, sandboxId: string, submissionId: string) =>
    call<SubmissionDetail>(
      'GET',
      `${classPath(name)}/submissions/${encodeURIComponent(sandboxId)}/${encodeURIComponent(submissionId)}`,
    ),
  regrade: (name: string, lab?: string) =>
    call<RegradeAnswer>('POST', `${classPath(name)}/regrade`, lab ? { lab } : {}),
  similar: (name: string, lab: string) =>
    call<SimilarityReport>('GET', `${classPath(name)}/similar?${new URLSearchParams({ lab })}`),
  deleteSubmission: (name: string, sandboxId: string, submissionId: string) =>
    call<void>(
      'DELETE',
      `${classPath(name)}/submissions/${encodeURIComponent(sandboxId)}/${encodeURIComponent(submissionId)}`,
    ),
  deleteSubmissions: (name: string, student: string, lab: string) =>
    call<SubmissionsDeleted>(
      'DELETE',
      `${classPath(name)}/submissions?${new URLSearchParams({ student, lab })}`,
    ),
}
