import { ApiError, ideApi } from '../api/ideApi'
import type { DueView } from '../contract/deadlines'
import type { SubmissionView } from '../contract/submissions'
import type { SandboxAddress } from './sandboxAddress'
import { mapped } from './sandboxError'

/** A graded lab's submissions, from its sandbox's page. Failures are SandboxErrors with the stack's words. */
export interface LabSubmissions {
  /** Earlier submissions, oldest first; undefined when the stack does not grade this sandbox's lab. */
  list(): Promise<SubmissionView[] | undefined>
  /** Submits the lab's files as they are on disk, and answers the submission once graded. */
  submit(): Promise<SubmissionView>
  /** The student's deadline and what follows it (the class's rules). */
  due(): Promise<DueView>
}

/**
 * The submissions of a sandbox the stack grades: its own, or one on an E2B remote the stack holds
 * (graded there, on E2B); undefined for a bare runtime (nothing there grades, so the panel offers
 * no Submit).
 */
export function labSubmissions(address: SandboxAddress): LabSubmissions | undefined {
  if (address.source === 'runtime') return undefined
  return {
    list: () =>
      mapped(() =>
        ideApi.submissions(address).catch((err: unknown) => {
          // The stack's word for a sandbox whose lab has no `grade` (or no longer the template's).
          if (err instanceof ApiError && err.status === 409) return undefined
          throw err
        }),
      ),
    submit: () => mapped(() => ideApi.submit(address)),
    due: () => mapped(() => ideApi.due(address)),
  }
}
