// Submitting a lab on the real stack: a student's join-link session submits the work in their
// sandbox, it is kept read-only in the data folder and graded in a grader sandbox at once; they
// read their own submissions and grades, and another student's are 403.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBash } from '../launcher/testing/sandboxCalls'
import { browserCall as callAsBrowser } from '../testing/browserCall'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { runtimePort } from '../testing/runtimeBridge'

const labsDir = join(import.meta.dirname, '..', 'class', 'grading', 'testing', 'labs')

describe('submissions', () => {
  let tp: TestPlatform
  const students: Record<string, { sandboxId: string; headers: Record<string, string>; token: string }> = {}
  const as = (who: string, method: string, path: string) =>
    callAsBrowser({ port: tp.platform.port, host: `localhost:${tp.platform.port}` }, method, path, {
      headers: students[who]?.headers ?? {},
    })
  const inSandbox = async (who: string, script: string) => {
    const { sandboxId, token } = students[who] ?? { sandboxId: '', token: '' }
    const route = tp.platform.manager.route(sandboxId)
    if (route.kind !== 'running') throw new Error(`sandbox is ${route.kind}`)
    return runBash({ port: await runtimePort(route.runtime), token }, script)
  }

  beforeAll(async () => {
    tp = await startTestPlatform({ templatesDir: labsDir })
    for (const student of ['ada', 'ben']) {
      const { sandboxID, envdAccessToken } = await tp.createSandbox({
        templateID: 'graded-sum',
        metadata: { class: 'monday', student },
      })
      const link = await ideCall(tp.platform, 'POST', `/sandboxes/${sandboxID}/join-links`, {})
      expect(link.status).toBe(201)
      const joined = await callAsBrowser(
        { port: tp.platform.port, host: `localhost:${tp.platform.port}` },
        'POST',
        '/join',
        { body: { token: link.json.token } },
      )
      expect(joined.status, joined.text).toBe(200)
      const cookie = String(joined.headers['set-cookie']).split(';')[0] as string
      students[student] = {
        sandboxId: sandboxID,
        token: envdAccessToken,
        headers: { Cookie: cookie, 'X-Sandbox-IDE-Key': joined.json.pageKey as string },
      }
    }
  }, 60_000)
  afterAll(() => tp.close())

  it('grades a failing then a passing submission, keeps both, and shows the student what the lab allows', async () => {
    const ada = students.ada?.sandboxId ?? ''
    await inSandbox(
      'ada',
      'cd ~ && printf "def total(numbers):\\n    return sum(n for n in numbers if n > 0)\\n" > solution.py && ' +
        'mkdir -p notes && echo mine > notes/plan.txt && echo "history" > .bash_history && ' +
        'echo "import unittest" > tests/test_visible.py',
    )
    const first = await as('ada', 'POST', `/sandboxes/${ada}/submissions`)
    expect(first.status, first.text).toBe(201)
    expect(first.json).toMatchObject({
      sandboxId: ada,
      templateID: 'graded-sum',
      student: 'ada',
      className: 'monday',
      files: ['notes/plan.txt', 'solution.py'],
      grade: { score: 2, maxScore: 4 },
    })
    // The lab's feedback is `messages`: each test with its message, and never the grader's output.
    expect(first.json.grade.output).toBeUndefined()
    expect(
      first.json.grade.tests.find((t: { name: string }) => t.name === 'test_negative').message,
    ).toContain('5 != 3')

    await inSandbox('ada', 'cd ~ && printf "def total(numbers):\\n    return sum(numbers)\\n" > solution.py')
    const second = await as('ada', 'POST', `/sandboxes/${ada}/submissions`)
    expect(second.status, second.text).toBe(201)
    expect(second.json.grade).toMatchObject({ score: 4, maxScore: 4 })
    expect(second.json.contentHash).not.toBe(first.json.contentHash)

    const listed = await as('ada', 'GET', `/sandboxes/${ada}/submissions`)
    expect(listed.status).toBe(200)
    expect(listed.json.map((s: { id: string; grade: { score: number } }) => [s.id, s.grade.score])).toEqual([
      [first.json.id, 2],
      [second.json.id, 4],
    ])
    // The teacher sees the grader's output too.
    const teacher = await ideCall(tp.platform, 'GET', `/sandboxes/${ada}/submissions`)
    expect(teacher.json[0].grade.output).toContain('test_negative')

    // The first snapshot is as it was submitted, and read-only.
    const kept = join(tp.dataDir, 'submissions', ada, first.json.id, 'files', 'solution.py')
    expect(readFileSync(kept, 'utf8')).toContain('if n > 0')
    expect(statSync(kept).mode & 0o222).toBe(0)
    // No grader sandbox is left.
    expect(
      tp.platform.manager
        .list()
        .map((r) => r.sandboxID)
        .sort(),
    ).toEqual([ada, students.ben?.sandboxId].sort())
  }, 120_000)

  it("refuses a student another's submissions, to read or to make (403)", async () => {
    const ada = students.ada?.sandboxId ?? ''
    for (const method of ['GET', 'POST']) {
      const answer = await as('ben', method, `/sandboxes/${ada}/submissions`)
      expect(answer.status, method).toBe(403)
      expect(answer.json.message).toBe("a student's join link opens their own sandbox only")
    }
    expect((await as('ben', 'GET', `/sandboxes/${students.ben?.sandboxId}/submissions`)).json).toEqual([])
  })
})
