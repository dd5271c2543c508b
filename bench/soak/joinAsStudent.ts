// A student joins as their browser does: their join link traded once (POST /ide/api/join) for a
// cookie and a page key, then their sandbox's session (runtime URL and token) with them. Their
// later calls (resume, timeout, session) go the same way, so the stack sees a student, not its owner.
import type { StudentSandbox } from '../../server/class/classroom'
import { browserCall } from '../../server/platform/testing/browserCall'
import type { SessionInfo } from '../../src/contract/ideApiTypes'

export interface StudentIde {
  student: string
  sandboxId: string
  /** A call to the IDE API as this student's page; rejects on any status but 2xx, with the stack's message. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>
  /** Their sandbox's session now (state, runtime URL, token). */
  session(): Promise<SessionInfo>
}

/** Opens `sandbox`'s join link on the stack at `port` (on `localhost`, as a browser on the machine). */
export async function joinAsStudent(port: number, sandbox: StudentSandbox): Promise<StudentIde> {
  const token = new URL(sandbox.ideUrl).hash.match(/^#token=(.+)$/)?.[1]
  if (!token) throw new Error(`${sandbox.student} has no join link, only ${sandbox.ideUrl}`)
  const stack = { port, host: `localhost:${port}` }
  const joined = await browserCall(stack, 'POST', '/join', { body: { token } })
  if (joined.status !== 200) throw new Error(`POST /join answered ${joined.status}: ${joined.text}`)
  const cookie = [joined.headers['set-cookie'] ?? []]
    .flat()
    .find((c) => c.startsWith('sandbox_student_'))
    ?.split(';')[0]
  if (!cookie) throw new Error('POST /join set no student cookie')
  const headers = { Cookie: cookie, 'X-Sandbox-IDE-Key': String(joined.json.pageKey) }
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await browserCall(stack, method, path, { headers, ...(body === undefined ? {} : { body }) })
    if (res.status < 200 || res.status >= 300)
      throw new Error(`${method} /ide/api${path} answered ${res.status}: ${res.json?.message ?? res.text}`)
    return res.json as T
  }
  return {
    student: sandbox.student,
    sandboxId: sandbox.sandboxId,
    call,
    session: () => call<SessionInfo>('GET', `/sandboxes/${sandbox.sandboxId}/session`),
  }
}
