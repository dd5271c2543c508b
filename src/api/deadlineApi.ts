// A class's deadline as the teacher sets it (/ide/api[/remotes/{remoteId}]/classes/{name}/deadline,
// …/extensions/…), apart from ideApi.ts so it loads with the dashboard, not with every page.
import type { ClassDeadline } from '../contract/deadlines'
import { type ClassPlace, call, classPath } from './ideApi'

/** The deadline and the class's rules; `deadline` null for none. Extensions are set one by one. */
export type DeadlineRules = Omit<ClassDeadline, 'extensions' | 'deadline'> & { deadline: string | null }

export const deadlineApi = {
  get: (p: ClassPlace, name: string) => call<ClassDeadline>('GET', `${classPath(p, name)}/deadline`),
  set: (p: ClassPlace, name: string, rules: DeadlineRules) =>
    call<ClassDeadline>('PUT', `${classPath(p, name)}/deadline`, rules),
  extend: (p: ClassPlace, name: string, student: string, until: string) =>
    call<ClassDeadline>('PUT', `${classPath(p, name)}/extensions/${encodeURIComponent(student)}`, {
      until,
    }),
  unextend: (p: ClassPlace, name: string, student: string) =>
    call<ClassDeadline>('DELETE', `${classPath(p, name)}/extensions/${encodeURIComponent(student)}`),
}
