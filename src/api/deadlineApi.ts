// A class's deadline as the teacher sets it (/ide/api/classes/{name}/deadline, …/extensions/…),
// apart from ideApi.ts so it loads with the dashboard, not with every page.
import type { ClassDeadline } from '../contract/deadlines'
import { call } from './ideApi'

const classPath = (name: string) => `/classes/${encodeURIComponent(name)}`

/** The deadline and the class's rules; `deadline` null for none. Extensions are set one by one. */
export type DeadlineRules = Omit<ClassDeadline, 'extensions' | 'deadline'> & { deadline: string | null }

export const deadlineApi = {
  get: (name: string) => call<ClassDeadline>('GET', `${classPath(name)}/deadline`),
  set: (name: string, rules: DeadlineRules) =>
    call<ClassDeadline>('PUT', `${classPath(name)}/deadline`, rules),
  extend: (name: string, student: string, until: string) =>
    call<ClassDeadline>('PUT', `${classPath(name)}/extensions/${encodeURIComponent(student)}`, { until }),
  unextend: (name: string, student: string) =>
    call<ClassDeadline>('DELETE', `${classPath(name)}/extensions/${encodeURIComponent(student)}`),
}
