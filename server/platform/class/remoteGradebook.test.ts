// The gradebook and deadline of a class on E2B, from its start, for real and without internet: a
// second platform plays E2B (both stacks hold the test labs). The class's students come from E2B's
// list of its sandboxes, so its gradebook lists them before anyone submits and a deadline and an
// extension can be set first; a Submit after is marked late by them. A class of the stack's own
// with the same name keeps its submissions out of the remote class's gradebook.
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClassDeadline } from '../../../src/contract/deadlines'
import type { Gradebook, GradebookRow } from '../../../src/contract/gradebook'
import { classGrades, classGradesCsv, setClassDeadline } from '../../class/classroom'
import { browserCall } from '../testing/browserCall'
import { copyGradedLabs, passingSolution } from '../testing/gradedClass'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { sandboxCommands } from './sandboxCommands'

const cloudKey = 'e2b_cloud_key_for_the_gradebook_01'
const hour = 60 * 60 * 1000
const iso = (ms: number) => new Date(ms).toISOString()

describe('the gradebook and deadline of a class on E2B', () => {
  let labs: string
  let cloud: TestPlatform
  let stack: TestPlatform
  let remoteId: string
  const sandboxes: Record<string, { sandboxId: string; runtimeUrl: string; accessToken: string }> = {}
  let adaSession: Record<string, string>
  /** What `npm run class -- --remote ID` calls the stack with. */
  const access = () => ({
    url: stack.url,
    apiKey: stack.apiKey,
    ideToken: stack.platform.ideToken.current(),
    remoteId,
  })
  const classPath = (rest = '') => `/remotes/${remoteId}/classes/friday${rest}`
  const owner = (method: string, path: string, body?: unknown) => ideCall(stack.platform, method, path, body)
  const asAda = (method: string, path: string, body?: unknown) =>
    browserCall({ port: stack.platform.port, host: `127.0.0.1:${stack.platform.port}` }, method, path, {
      headers: adaSession,
      ...(body === undefined ? {} : { body }),
    })
  const grades = async (): Promise<Gradebook> => {
    const answer = await owner('GET', classPath('/grades'))
    expect(answer.status, answer.text).toBe(200)
    return answer.json
  }
  const row = (book: Gradebook, student: string) =>
    book.rows.find((r) => r.student === student) as GradebookRow

  /** A student's sandbox on the cloud, made through the stack as `npm run class` makes it. */
  const studentSandbox = async (student: string) => {
    const made = await owner('POST', `/remotes/${remoteId}/sandboxes`, {
      templateId: 'graded-sum',
      metadata: { class: 'friday', student },
    })
    expect(made.status, made.text).toBe(201)
    sandboxes[student] = made.json
    // Her solution, as she would write it in her editor.
    const written = await sandboxCommands(made.json).run(
      '/bin/bash',
      ['-c', `echo ${Buffer.from(passingSolution).toString('base64')} | base64 -d > ~/solution.py`],
      { timeoutMs: 10_000, tag: 'test' },
    )
    expect(written.exitCode).toBe(0)
  }
  const submit = async (student: string) => {
    const answer = await owner(
      'POST',
      `/remotes/${remoteId}/sandboxes/${sandboxes[student]?.sandboxId}/submissions`,
    )
    expect(answer.status, answer.text).toBe(201)
    return answer.json
  }

  beforeAll(async () => {
    labs = copyGradedLabs('remote-gradebook-')
    cloud = await startTestPlatform({ apiKey: cloudKey, templatesDir: labs })
    stack = await startTestPlatform({ templatesDir: labs })
    const added = await owner('POST', '/remotes', { apiKey: cloudKey, apiUrl: cloud.url })
    expect(added.status, added.text).toBe(201)
    remoteId = added.json.remoteId
    await studentSandbox('ada')
    await studentSandbox('ben')
    const link = await owner(
      'POST',
      `/remotes/${remoteId}/sandboxes/${sandboxes.ada?.sandboxId}/join-links`,
      {},
    )
    expect(link.status, link.text).toBe(201)
    const host = { port: stack.platform.port, host: `127.0.0.1:${stack.platform.port}` }
    const joined = await browserCall(host, 'POST', '/join', { body: { token: link.json.token } })
    expect(joined.status, joined.text).toBe(200)
    adaSession = {
      Cookie: String(joined.headers['set-cookie']).split(';')[0] as string,
      'X-Sandbox-IDE-Key': joined.json.pageKey as string,
    }
  }, 90_000)
  afterAll(async () => {
    await stack?.close()
    await cloud?.close()
    if (labs) rmSync(labs, { recursive: true, force: true })
  })

  it('lists every student of the class before anyone submits, as JSON and CSV', async () => {
    const book = await grades()
    expect(book).toMatchObject({ className: 'friday', policy: 'best', labs: ['graded-sum'] })
    expect(book.rows.map((r) => [r.student, r.lab, r.attempts])).toEqual([
      ['ada', 'graded-sum', 0],
      ['ben', 'graded-sum', 0],
    ])
    const csv = await owner('GET', classPath('/grades?format=csv'))
    expect(csv.status).toBe(200)
    expect(csv.text.split('\n').filter((l) => l.startsWith('ada,') || l.startsWith('ben,'))).toHaveLength(2)
    // Nothing set yet: no deadline, the best counts.
    expect((await owner('GET', classPath('/deadline'))).json).toEqual({
      late: { kind: 'refuse' },
      counts: 'best',
      examMode: false,
      extensions: {},
    })
    // `npm run class -- --grades friday --remote ID` reads the same gradebook.
    expect(await classGrades(access(), 'friday')).toEqual(book)
    expect(await classGradesCsv(access(), 'friday')).toBe(csv.text)
    // Not a class of the stack's own, nor one this remote has.
    expect((await owner('GET', '/classes/friday/grades')).status).toBe(404)
    const none = await owner('GET', `/remotes/${remoteId}/classes/saturday/grades`)
    expect(none.status).toBe(404)
    expect(none.json.message).toBe("no class 'saturday' on this E2B remote")
  })

  it("answers a student's session 403 on every gradebook and deadline route, her own row too", async () => {
    for (const [method, path, body] of [
      ['GET', classPath('/grades'), undefined],
      ['GET', classPath('/grades?format=csv'), undefined],
      ['GET', classPath('/deadline'), undefined],
      [
        'PUT',
        classPath('/deadline'),
        { deadline: null, late: { kind: 'refuse' }, counts: 'best', examMode: false },
      ],
      ['PUT', classPath('/extensions/ada'), { until: iso(Date.now() + hour) }],
      ['DELETE', classPath('/extensions/ada'), undefined],
      ['POST', classPath('/regrade'), {}],
      ['GET', classPath('/similar?lab=graded-sum'), undefined],
      ['DELETE', classPath('/submissions?student=ada&lab=graded-sum'), undefined],
      ['GET', classPath(`/submissions/${sandboxes.ada?.sandboxId}/x`), undefined],
    ] as const) {
      const answer = await asAda(method, path, body)
      expect(answer.status, `${method} ${path}`).toBe(403)
    }
  })

  it('takes a deadline and an extension before any submission, and a Submit after is marked by them', async () => {
    const past = iso(Date.now() - hour)
    const rules = { deadline: past, late: { kind: 'late', penaltyPercentPerDay: 10 }, counts: 'best' }
    // Exam mode cannot close a sandbox on E2B: refused, saying so, and nothing is set.
    const exam = await owner('PUT', classPath('/deadline'), { ...rules, examMode: true })
    expect(exam.status).toBe(400)
    expect(exam.json.message).toContain('exam mode is for the classes of the stack itself')
    await expect(setClassDeadline(access(), 'friday', { examMode: true })).rejects.toThrow(
      /exam mode is for the classes of the stack itself/,
    )
    const set = await owner('PUT', classPath('/deadline'), { ...rules, examMode: false })
    expect(set.status, set.text).toBe(200)
    // `npm run class -- --class friday --counts last --remote ID` changes it there too, and back.
    expect(await setClassDeadline(access(), 'friday', { counts: 'last' })).toMatchObject({
      deadline: past,
      counts: 'last',
    })
    expect((await owner('PUT', classPath('/deadline'), { ...rules, examMode: false })).status).toBe(200)
    const later = iso(Date.now() + hour)
    const extended = await owner('PUT', classPath('/extensions/ben'), { until: later })
    expect(extended.status, extended.text).toBe(200)
    expect((extended.json as ClassDeadline).extensions).toEqual({ ben: later })
    // An unknown student has no extension to get.
    expect((await owner('PUT', classPath('/extensions/cy'), { until: later })).status).toBe(404)

    // Her page reads her deadline as set.
    const due = await asAda('GET', `/remotes/${remoteId}/sandboxes/${sandboxes.ada?.sandboxId}/deadline`)
    expect(due.json).toMatchObject({ dueAt: past, extended: false, late: { kind: 'late' } })

    expect(await submit('ada')).toMatchObject({ daysLate: 1, countedScore: 3.6, grade: { score: 4 } })
    const onTime = await submit('ben')
    expect(onTime.daysLate).toBeUndefined()

    const book = await grades()
    expect(book).toMatchObject({ deadline: past, late: { kind: 'late', penaltyPercentPerDay: 10 } })
    expect(row(book, 'ada')).toMatchObject({ attempts: 1, late: true, dueAt: past, counted: { daysLate: 1 } })
    expect(row(book, 'ben')).toMatchObject({ attempts: 1, late: false, dueAt: later, extended: true })
    const csv = await owner('GET', classPath('/grades?format=csv'))
    expect(csv.headers['content-disposition']).toBe('attachment; filename="grades-friday.csv"')
    expect(csv.text).toContain('ada,graded-sum,')
    expect(csv.text).toContain('ben,graded-sum,')
  }, 180_000)

  it("keeps a same-named class of the stack's own out of the remote class's gradebook", async () => {
    // The docs say not to reuse a name; one reused still shows each class only its own work.
    const zoe = await stack.createSandbox({
      templateID: 'graded-sum',
      metadata: { class: 'friday', student: 'zoe' },
    })
    const local = await owner('POST', `/sandboxes/${zoe.sandboxID}/submissions`)
    expect(local.status, local.text).toBe(201)
    expect((await grades()).rows.map((r) => r.student)).toEqual(['ada', 'ben'])
    const stored = `/submissions/${zoe.sandboxID}/${local.json.id}`
    expect((await owner('GET', classPath(stored))).status).toBe(404)
    expect((await owner('DELETE', classPath(stored))).status).toBe(404)
    expect((await owner('GET', `/classes/friday${stored}`)).status).toBe(200)
  }, 120_000)

  it("opens, regrades, compares and deletes the remote class's submissions by its own routes", async () => {
    const ada = row(await grades(), 'ada').counted
    const shown = await owner('GET', classPath(`/submissions/${ada?.sandboxId}/${ada?.submissionId}`))
    expect(shown.status, shown.text).toBe(200)
    expect(shown.json).toMatchObject({ student: 'ada', lab: 'graded-sum', sandboxId: ada?.sandboxId })
    const regraded = await owner('POST', classPath('/regrade'), {})
    // Only the remote class's two, not zoe's on the stack.
    expect(regraded.json).toEqual({ regraded: 2, changed: 0, failed: [] })
    const similar = await owner('GET', classPath('/similar?lab=graded-sum'))
    expect(similar.status, similar.text).toBe(200)
    expect(similar.json.compared).toBe(2)
    const deleted = await owner('DELETE', classPath('/submissions?student=ada&lab=graded-sum'))
    expect(deleted.json).toEqual({ deleted: 1 })
    // Her row stays, with no submission: she is still in the class on E2B.
    expect(row(await grades(), 'ada')).toMatchObject({ attempts: 0 })
  }, 180_000)
})
