// The teacher's gradebook of a class (/ide/api[/remotes/{remoteId}]/classes/{name}/…), apart from
// ideApi.ts so it loads with the dashboard's Gradebook tab, not with every page.
import type { Gradebook, RegradeAnswer, SubmissionDetail, SubmissionsDeleted } from '../contract/gradebook'
import type { SimilarityReport } from '../contract/similarity'
import { type ClassPlace, call, classPath } from './ideApi'

const submissionPath = (p: ClassPlace, name: string, sandboxId: string, submissionId: string) =>
  `${classPath(p, name)}/submissions/${encodeURIComponent(sandboxId)}/${encodeURIComponent(submissionId)}`

export const gradebookApi = {
  grades: (p: ClassPlace, name: string) => call<Gradebook>('GET', `${classPath(p, name)}/grades`),
  submission: (p: ClassPlace, name: string, sandboxId: string, submissionId: string) =>
    call<SubmissionDetail>('GET', submissionPath(p, name, sandboxId, submissionId)),
  regrade: (p: ClassPlace, name: string, lab?: string) =>
    call<RegradeAnswer>('POST', `${classPath(p, name)}/regrade`, lab ? { lab } : {}),
  similar: (p: ClassPlace, name: string, lab: string) =>
    call<SimilarityReport>('GET', `${classPath(p, name)}/similar?${new URLSearchParams({ lab })}`),
  deleteSubmission: (p: ClassPlace, name: string, sandboxId: string, submissionId: string) =>
    call<void>('DELETE', submissionPath(p, name, sandboxId, submissionId)),
  deleteSubmissions: (p: ClassPlace, name: string, student: string, lab: string) =>
    call<SubmissionsDeleted>(
      'DELETE',
      `${classPath(p, name)}/submissions?${new URLSearchParams({ student, lab })}`,
    ),
}
