import { expect } from 'vitest'
import { type PlatformAccess, type StudentSandbox, startClass } from '../../class/classroom'

/**
 * The class the dashboard's tests teach: monday, three students from python-basics, made as
 * `npm run class` makes it (on the stack, or on an E2B remote when `access` names one).
 */
export async function startTestClass(access: PlatformAccess): Promise<StudentSandbox[]> {
  const made = await startClass(access, {
    className: 'monday',
    template: 'python-basics',
    students: ['ada', 'ben', 'cy'],
    timeoutSeconds: 600,
  })
  expect(made.failures).toEqual([])
  return made.sandboxes
}
