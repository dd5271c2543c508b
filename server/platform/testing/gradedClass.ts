import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { runBash } from '../launcher/testing/sandboxCalls'
import { browserCall } from './browserCall'
import { type IdeAnswer, ideCall } from './ideCall'
import { startTestPlatform, type TestPlatform } from './platformFixture'
import { runtimePort } from './runtimeBridge'

const labs = join(import.meta.dirname, '..', 'class', 'grading', 'testing', 'labs')

/** graded-sum's solution that passes all of its tests, the hidden ones too. */
export const passingSolution = 'def total(numbers):\n    return sum(numbers)\n'

/**
 * The test labs (class/grading/testing/labs/) copied to a fresh folder named from `prefix`, with
 * room for a loaded machine: graded-sum's own 5 s grading limit is for the time-limit tests.
 */
export function copyGradedLabs(prefix: string): string {
  const templatesDir = mkdtempSync(join(tmpdir(), prefix))
  cpSync(labs, templatesDir, { recursive: true })
  const manifest = join(templatesDir, 'graded-sum', '.lab', 'lab.json')
  writeFileSync(
    manifest,
    readFileSync(manifest, 'utf8').replace('"timeoutSeconds": 5', '"timeoutSeconds": 60'),
  )
  return templatesDir
}

/** Class monday of the graded-sum lab on a real stack, with the calls its tests make. */
export interface GradedClass {
  tp: TestPlatform
  /** The student's sandbox ('' for one not in the class). */
  sandboxOf(student: string): string
  /** Calls the IDE API as the teacher. */
  owner(method: string, path: string, body?: unknown): Promise<IdeAnswer>
  /** Calls the IDE API as a page with `session` (from join()) does. */
  as(
    session: Record<string, string>,
    method: string,
    path: string,
    body?: unknown,
  ): ReturnType<typeof browserCall>
  /** Opens a join link to the student's sandbox as their browser does: the session's headers. */
  join(student: string): Promise<Record<string, string>>
  /** Writes `code` to the student's ~/solution.py, as they would in their editor. */
  writeSolution(student: string, code: string): Promise<void>
  /** Submits the student's work as the teacher may, kept and graded (201); the submission's id. */
  submit(student: string): Promise<string>
  /** Stops the stack and removes its data and the copied labs. */
  close(): Promise<void>
}

/**
 * Starts a stack on a copy of the test labs (folder named from `prefix`) and makes a graded-sum
 * sandbox in class monday for each student of `solutions`, their solution.py written in it.
 */
export async function startGradedClass(
  solutions: Record<string, string>,
  prefix: string,
): Promise<GradedClass> {
  const templatesDir = copyGradedLabs(prefix)
  let tp: TestPlatform | undefined
  const sandboxes: Record<string, Sandbox> = {}
  try {
    tp = await startTestPlatform({ templatesDir })
    for (const [student, code] of Object.entries(solutions)) {
      const { sandboxID, envdAccessToken } = await tp.createSandbox({
        templateID: 'graded-sum',
        metadata: { class: 'monday', student },
      })
      sandboxes[student] = { id: sandboxID, token: envdAccessToken }
      await writeSolution(tp, sandboxes[student], code)
    }
  } catch (err) {
    await tp?.close()
    rmSync(templatesDir, { recursive: true, force: true })
    throw err
  }
  const stack = tp
  const sandboxOf = (student: string) => sandboxes[student]?.id ?? ''
  const owner = (method: string, path: string, body?: unknown) => ideCall(stack.platform, method, path, body)
  const as: GradedClass['as'] = (session, method, path, body) =>
    browserCall({ port: stack.platform.port, host: `localhost:${stack.platform.port}` }, method, path, {
      headers: session,
      ...(body === undefined ? {} : { body }),
    })
  return {
    tp: stack,
    sandboxOf,
    owner,
    as,
    async join(student) {
      const link = await owner('POST', `/sandboxes/${sandboxOf(student)}/join-links`, {})
      const joined = await as({}, 'POST', '/join', { token: link.json.token })
      expect(joined.status, joined.text).toBe(200)
      return {
        Cookie: String(joined.headers['set-cookie']).split(';')[0] as string,
        'X-Sandbox-IDE-Key': joined.json.pageKey as string,
      }
    },
    async writeSolution(student, code) {
      const sandbox = sandboxes[student]
      if (!sandbox) throw new Error(`${student} has no sandbox in the class`)
      await writeSolution(stack, sandbox, code)
    },
    async submit(student) {
      const answer = await owner('POST', `/sandboxes/${sandboxOf(student)}/submissions`)
      expect(answer.status, answer.text).toBe(201)
      return answer.json.id as string
    },
    async close() {
      await stack.close()
      rmSync(templatesDir, { recursive: true, force: true })
    },
  }
}

interface Sandbox {
  id: string
  token: string
}

async function writeSolution(tp: TestPlatform, sandbox: Sandbox, code: string): Promise<void> {
  const route = tp.platform.manager.route(sandbox.id)
  if (route.kind !== 'running') throw new Error(`sandbox is ${route.kind}`)
  // In base64, so any code reaches the file as it is.
  await runBash(
    { port: await runtimePort(route.runtime), token: sandbox.token },
    `echo ${Buffer.from(code).toString('base64')} | base64 -d > ~/solution.py`,
  )
}
