// Graded labs for a class on E2B, for real and without internet: a second platform plays E2B
// (both stacks hold the test labs). A student's Submit reads her files through her E2B sandbox's
// runtime, keeps them in the teacher's stack like any other submission, and grades them in a
// fresh grader sandbox made on E2B, with the hidden tests uploaded from the stack.
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserCall } from '../testing/browserCall'
import { copyGradedLabs, passingSolution } from '../testing/gradedClass'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { sandboxCommands } from './sandboxCommands'

const cloudKey = 'e2b_cloud_key_for_grading_0123'
const wrongSolution = 'def total(numbers):\n    return sum(n for n in numbers if n > 0)\n'

describe('graded labs of a class with E2B behind it', () => {
  let labs: string
  let cloud: TestPlatform
  let stack: TestPlatform
  let remoteId: string
  let ada: { sandboxId: string; runtimeUrl: string; accessToken: string }
  let adaSession: Record<string, string>
  const submissionsOf = (id: string) => `/remotes/${remoteId}/sandboxes/${id}/submissions`

  /** Runs a script in a sandbox on the cloud through its runtime, as the student's browser reaches it. */
  const inSandbox = async (sandbox: { runtimeUrl: string; accessToken: string }, script: string) =>
    sandboxCommands(sandbox).run('/bin/bash', ['-c', script], { timeoutMs: 10_000, tag: 'test' })
  const writeSolution = (code: string) =>
    inSandbox(ada, `echo ${Buffer.from(code).toString('base64')} | base64 -d > ~/solution.py`)
  /** The cloud's sandboxes, as E2B lists them: the class's and any grader's. */
  const inCloud = () => cloud.platform.manager.list()
  const graders = () => inCloud().filter((r) => r.metadata.purpose === 'grader')

  /** A student's sandbox on the cloud, made through the stack as `npm run class` makes it. */
  const studentSandbox = async (student: string, templateId: string) => {
    const made = await ideCall(stack.platform, 'POST', `/remotes/${remoteId}/sandboxes`, {
      templateId,
      metadata: { class: 'monday', student },
    })
    expect(made.status, made.text).toBe(201)
    return made.json as { sandboxId: string; runtimeUrl: string; accessToken: string }
  }

  /** The student opens their join link: the headers their page then sends to the stack. */
  const openLink = async (sandboxId: string) => {
    const link = await ideCall(
      stack.platform,
      'POST',
      `/remotes/${remoteId}/sandboxes/${sandboxId}/join-links`,
      {},
    )
    expect(link.status, link.text).toBe(201)
    const host = { port: stack.platform.port, host: `127.0.0.1:${stack.platform.port}` }
    const joined = await browserCall(host, 'POST', '/join', { body: { token: link.json.token } })
    expect(joined.status, joined.text).toBe(200)
    return {
      Cookie: String(joined.headers['set-cookie']).split(';')[0] as string,
      'X-Sandbox-IDE-Key': joined.json.pageKey as string,
    }
  }
  const asAda = (method: string, path: string) =>
    browserCall({ port: stack.platform.port, host: `127.0.0.1:${stack.platform.port}` }, method, path, {
      headers: adaSession,
    })

  beforeAll(async () => {
    labs = copyGradedLabs('remote-grading-')
    cloud = await startTestPlatform({ apiKey: cloudKey, templatesDir: labs })
    stack = await startTestPlatform({ templatesDir: labs })
    const added = await ideCall(stack.platform, 'POST', '/remotes', { apiKey: cloudKey, apiUrl: cloud.url })
    expect(added.status, added.text).toBe(201)
    remoteId = added.json.remoteId
    ada = await studentSandbox('ada', 'graded-sum')
    adaSession = await openLink(ada.sandboxId)
  }, 60_000)
  afterAll(async () => {
    await stack?.close()
    // The last test stops it already.
    await cloud?.close().catch(() => {})
    if (labs) rmSync(labs, { recursive: true, force: true })
  })

  it("grades a student's Submit on E2B: kept on the stack, each test's result, failing then passing", async () => {
    await writeSolution(wrongSolution)
    const failing = await asAda('POST', submissionsOf(ada.sandboxId))
    expect(failing.status, failing.text).toBe(201)
    expect(failing.json).toMatchObject({
      sandboxId: ada.sandboxId,
      remoteId,
      templateID: 'graded-sum',
      student: 'ada',
      className: 'monday',
      files: ['solution.py'],
      grade: { score: 2, maxScore: 4 },
    })
    // The lab's feedback is `messages`: each test with what failed, never the grader's output.
    expect(failing.json.grade.output).toBeUndefined()
    const negative = failing.json.grade.tests.find((t: { name: string }) => t.name === 'test_negative')
    expect(negative).toMatchObject({ outcome: 'failed', earned: 0, points: 2 })
    expect(negative.message).toContain('5 != 3')
    expect(graders()).toEqual([])

    await writeSolution(passingSolution)
    const passing = await asAda('POST', submissionsOf(ada.sandboxId))
    expect(passing.status, passing.text).toBe(201)
    expect(passing.json.grade).toMatchObject({ score: 4, maxScore: 4 })
    expect(
      passing.json.grade.tests.map((t: { name: string; outcome: string }) => [t.name, t.outcome]),
    ).toEqual([
      ['test_empty', 'passed'],
      ['test_negative', 'passed'],
      ['test_positive', 'passed'],
    ])

    // Snapshotted in the teacher's data folder as a local submission is, read-only.
    const kept = join(stack.dataDir, 'submissions', ada.sandboxId, passing.json.id)
    expect(readFileSync(join(kept, 'files', 'solution.py'), 'utf8')).toBe(passingSolution)
    expect(JSON.parse(readFileSync(join(kept, 'submission.json'), 'utf8'))).toMatchObject({ remoteId })
    const listed = await asAda('GET', submissionsOf(ada.sandboxId))
    expect(listed.json.map((s: { grade: { score: number } }) => s.grade.score)).toEqual([2, 4])
    // Every grader sandbox is gone from E2B; the student's alone is left.
    expect(graders()).toEqual([])
    expect(inCloud().map((r) => r.sandboxID)).toEqual([ada.sandboxId])
  }, 120_000)

  it("never puts the hidden tests in the student's sandbox, and takes only her own files", async () => {
    const seen = await inSandbox(
      ada,
      'cd ~ && ls -A; test -e grader && echo HIDDEN; ls .lab/start; echo x > .history; mkdir -p notes && echo n > notes/a.txt; ln -sf /etc/passwd linked.txt',
    )
    expect(seen.output).not.toContain('HIDDEN')
    expect(seen.output).not.toContain('grader')
    const answer = await ideCall(stack.platform, 'POST', submissionsOf(ada.sandboxId))
    expect(answer.status, answer.text).toBe(201)
    // Not `.history` (a dot file the template has not), not the link, not the lab's own tests.
    expect(answer.json.files).toEqual(['notes/a.txt', 'solution.py'])
    expect(answer.json.grade.output).toBeDefined()
  }, 120_000)

  it('grades in a sandbox with no network out, and the gradebook and a regrade take the remote submissions', async () => {
    const ben = await studentSandbox('ben', 'graded-exit')
    await inSandbox(
      ben,
      `echo ${Buffer.from(passingSolution).toString('base64')} | base64 -d > ~/solution.py`,
    )
    const graded = await ideCall(stack.platform, 'POST', submissionsOf(ben.sandboxId))
    expect(graded.status, graded.text).toBe(201)
    expect(graded.json.grade).toMatchObject({ score: 1, maxScore: 1, exitCode: 0 })
    if (cloud.platform.launcher.network !== 'host') expect(graded.json.grade.output).toBe('routes out: 0\n')

    const book = await ideCall(stack.platform, 'GET', '/classes/monday/grades')
    expect(book.status, book.text).toBe(200)
    // biome-ignore lint/suspicious/noExplicitAny: rows as the JSON answer has them
    const row = (student: string) => book.json.rows.find((r: any) => r.student === student)
    expect(row('ada')).toMatchObject({ lab: 'graded-sum', counted: { score: 4, maxScore: 4 }, attempts: 3 })
    expect(row('ben')).toMatchObject({ lab: 'graded-exit', counted: { score: 1, maxScore: 1 } })

    const regraded = await ideCall(stack.platform, 'POST', '/classes/monday/regrade', { lab: 'graded-sum' })
    expect(regraded.json).toEqual({ regraded: 3, changed: 0, failed: [] })
    expect(graders()).toEqual([])

    // A deadline passed, late work at 10% a day: her page reads it, and a Submit now is late.
    const deadline = new Date(Date.now() - 60_000).toISOString()
    const set = await ideCall(stack.platform, 'PUT', '/classes/monday/deadline', {
      deadline,
      late: { kind: 'late', penaltyPercentPerDay: 10 },
      counts: 'best',
      examMode: false,
    })
    expect(set.status, set.text).toBe(200)
    const due = await asAda('GET', `/remotes/${remoteId}/sandboxes/${ada.sandboxId}/deadline`)
    expect(due.json).toMatchObject({ dueAt: deadline, extended: false, late: { kind: 'late' } })
    const late = await ideCall(stack.platform, 'POST', submissionsOf(ben.sandboxId))
    expect(late.status, late.text).toBe(201)
    expect(late.json).toMatchObject({ daysLate: 1, countedScore: 0.9 })
  }, 180_000)

  it('cancels a remote grading when the teacher deletes the submission: its grader on E2B is killed', async () => {
    await writeSolution('while True:\n    pass\n')
    const submitting = asAda('POST', submissionsOf(ada.sandboxId))
    // Wait until its grader runs on E2B.
    for (let i = 0; i < 300 && graders().length === 0; i++) await new Promise((r) => setTimeout(r, 100))
    expect(graders()).toHaveLength(1)
    // Made as a grader: no way out, killed (not paused) at its own short timeout.
    const [grader] = graders()
    expect(grader).toMatchObject({ offline: true, autoPause: false })
    const detail = await (await cloud.api('GET', `/sandboxes/${grader?.sandboxID}`)).json()
    expect(detail.allowInternetAccess).toBe(false)
    expect(Date.parse(detail.endAt) - Date.now()).toBeLessThan(125_000)
    const deleted = await ideCall(
      stack.platform,
      'DELETE',
      '/classes/monday/submissions?student=ada&lab=graded-sum',
    )
    expect(deleted.json).toEqual({ deleted: 4 })
    const answer = await submitting
    expect(answer.status, answer.text).toBe(409)
    expect(answer.json.message).toContain('deleted while it was being graded')
    expect(graders()).toEqual([])
  }, 120_000)

  it('answers a clear error, at once, when E2B cannot be reached', async () => {
    await writeSolution(passingSolution)
    await cloud.close()
    const started = Date.now()
    const answer = await asAda('POST', submissionsOf(ada.sandboxId))
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(answer.status).toBe(502)
    expect(answer.json).toEqual({ code: 502, message: expect.stringMatching(/^E2B API unreachable at /) })
    // Nothing was kept of a Submit that read nothing.
    expect(existsSync(join(stack.dataDir, 'submissions', ada.sandboxId))).toBe(false)
  }, 60_000)
})
