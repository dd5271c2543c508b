import { type DeadlineRules, deadlineApi } from '../api/deadlineApi'
import type { ClassPlace } from '../api/ideApi'
import type { ClassDeadline } from '../contract/deadlines'
import { mapped } from './sandboxError'

export type { DeadlineRules }

/**
 * The deadline of a class (the stack's own, or one on E2B: the stack keeps it either way), its
 * rules and its students' extensions (the owner's sign-in only). Failures are SandboxErrors with
 * the stack's words.
 */
export const classDeadlines = {
  get: (place: ClassPlace, name: string): Promise<ClassDeadline> =>
    mapped(() => deadlineApi.get(place, name)),
  set: (place: ClassPlace, name: string, rules: DeadlineRules): Promise<ClassDeadline> =>
    mapped(() => deadlineApi.set(place, name, rules)),
  /** A student's own deadline; `until` null takes it back. */
  extend: (place: ClassPlace, name: string, student: string, until: string | null): Promise<ClassDeadline> =>
    mapped(() =>
      until === null
        ? deadlineApi.unextend(place, name, student)
        : deadlineApi.extend(place, name, student, until),
    ),
}
