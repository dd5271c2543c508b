import { type DeadlineRules, deadlineApi } from '../api/deadlineApi'
import type { ClassDeadline } from '../contract/deadlines'
import { mapped } from './sandboxError'

export type { DeadlineRules }

/**
 * The deadline of one of the stack's own classes, its rules and its students' extensions (the
 * owner's sign-in only). Failures are SandboxErrors with the stack's words.
 */
export const classDeadlines = {
  get: (name: string): Promise<ClassDeadline> => mapped(() => deadlineApi.get(name)),
  set: (name: string, rules: DeadlineRules): Promise<ClassDeadline> =>
    mapped(() => deadlineApi.set(name, rules)),
  /** A student's own deadline; `until` null takes it back. */
  extend: (name: string, student: string, until: string | null): Promise<ClassDeadline> =>
    mapped(() =>
      until === null ? deadlineApi.unextend(name, student) : deadlineApi.extend(name, student, until),
    ),
}
