// The teacher's dashboard against a real platform: a class of three from the python-basics lab,
// its students' state, links and activity, the lab's check for all (run in each sandbox through
// its runtime), a reset, and pause, resume, extend and end for all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StudentSandbox } from '../../class/classroom'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { rawRequest } from '../testing/rawHttp'
import { startTestClass } from '../testing/testClass'
import { sandboxCommands } from './sandboxCommands'

const solved = `def average(numbers):\n    return sum(numbers) / len(numbers) if numbers else 0\n`

describe("the teacher's dashboard", () => {
  let tp: TestPlatform
  let students: StudentSandbox[]
  const inSandbox = (id: string, script: string) => {
    const route = tp.platform.manager.route(id)
    if (route.kind !== 'running') throw new Error(`sandbox ${id} is ${route.kind}`)
    return sandboxCommands(route.runtime).run('/bin/bash', ['-c', script], { timeoutMs: 10_000, tag: 'test' })
  }
  const view = async () => (await ideCall(tp.platform, 'GET', '/classes/monday')).json
  // biome-ignore lint/suspicious/noExplicitAny: rows as the JSON answer has them
  const byName = (rows: any[], name: string): any => rows.find((r) => r.student === name)

  beforeAll(async () => {
    tp = await startTestPlatform()
    const access = { url: tp.url, apiKey: tp.apiKey, ideToken: tp.platform.ideToken.current() }
    students = await startTestClass(access)
  }, 60_000)
  afterAll(() => tp.close())

  it('lists the class and each student, with their link not yet opened and no check yet', async () => {
    expect((await ideCall(tp.platform, 'GET', '/classes')).json).toEqual([
      { name: 'monday', students: 3, running: 3 },
    ])
    const answer = await view()
    expect(answer.name).toBe('monday')
    expect(answer.students.map((s: { student: string }) => s.student)).toEqual(['ada', 'ben', 'cy'])
    for (const row of answer.students) {
      expect(row).toMatchObject({
        state: 'running',
        link: { state: 'waiting' },
        check: null,
        lastActivityAt: null,
      })
    }
    expect((await ideCall(tp.platform, 'GET', '/classes/tuesday')).status).toBe(404)
    expect((await ideCall(tp.platform, 'GET', '/classes/..%2F')).status).toBe(400)
  })

  it("shows a student's last activity once their browser calls the sandbox", async () => {
    const ada = students[0] as StudentSandbox
    const before = Date.now()
    await rawRequest({ port: tp.platform.port, host: `49983-${ada.sandboxId}.localhost`, path: '/health' })
    const seen = Date.parse(byName((await view()).students, 'ada')?.lastActivityAt)
    expect(seen).toBeGreaterThanOrEqual(before - 5)
    expect(byName((await view()).students, 'ben')).toMatchObject({ lastActivityAt: null })
  })

  it('runs the check in every sandbox and says how many pass; a reset brings the starting files back', async () => {
    const [ada, ben] = students as [StudentSandbox, StudentSandbox]
    await inSandbox(ada.sandboxId, `cat > ~/main.py <<'PY'\n${solved}PY`)
    const checked = await ideCall(tp.platform, 'POST', '/classes/monday/check')
    expect(checked.status).toBe(200)
    expect(checked.json).toEqual({ passed: 1, checked: 3, students: 3 })
    const rows = (await view()).students
    expect(byName(rows, 'ada')?.check).toMatchObject({ passed: true, status: 'exit status 0' })
    expect(byName(rows, 'ben')?.check).toMatchObject({ passed: false, status: 'exit status 1' })
    expect(byName(rows, 'ben')?.check.output).toContain('FAILED')

    // Only some students: ben, after he fixed his too.
    await inSandbox(ben.sandboxId, `cat > ~/main.py <<'PY'\n${solved}PY`)
    const some = await ideCall(tp.platform, 'POST', '/classes/monday/check', { sandboxIds: [ben.sandboxId] })
    expect(some.json).toEqual({ passed: 1, checked: 1, students: 1 })
    expect(byName((await view()).students, 'ben')?.check).toMatchObject({ passed: true })
    const stranger = await ideCall(tp.platform, 'POST', '/classes/monday/check', { sandboxIds: ['nope'] })
    expect(stranger.status).toBe(400)

    expect((await ideCall(tp.platform, 'POST', `/sandboxes/${ada.sandboxId}/lab-reset`)).status).toBe(204)
    expect((await inSandbox(ada.sandboxId, 'cat ~/main.py')).output).toContain('return None')
    expect(byName((await view()).students, 'ada')?.check).toMatchObject({ passed: null })
  })

  it('pauses, resumes and extends all or some, and ends the class', async () => {
    const cy = students[2] as StudentSandbox
    expect(
      (await ideCall(tp.platform, 'POST', '/classes/monday/pause', { sandboxIds: [cy.sandboxId] })).json,
    ).toEqual({
      changed: 1,
    })
    expect(byName((await view()).students, 'cy')).toMatchObject({ state: 'paused' })
    // A check leaves a paused sandbox as it is.
    expect((await ideCall(tp.platform, 'POST', '/classes/monday/check')).json).toMatchObject({
      checked: 2,
      students: 3,
    })
    expect((await ideCall(tp.platform, 'POST', '/classes/monday/resume')).json).toEqual({ changed: 1 })
    expect((await view()).students.every((s: { state: string }) => s.state === 'running')).toBe(true)
    const extended = await ideCall(tp.platform, 'POST', '/classes/monday/timeout', { seconds: 7200 })
    expect(extended.json).toEqual({ changed: 3 })
    for (const row of (await view()).students)
      expect(Date.parse(row.endAt) - Date.now()).toBeGreaterThan(7000_000)
    expect((await ideCall(tp.platform, 'POST', '/classes/monday/timeout', { seconds: 'x' })).status).toBe(400)

    expect((await ideCall(tp.platform, 'DELETE', '/classes/monday')).status).toBe(204)
    expect(tp.platform.manager.list()).toEqual([])
    expect((await ideCall(tp.platform, 'GET', '/classes')).json).toEqual([])
  })
})
