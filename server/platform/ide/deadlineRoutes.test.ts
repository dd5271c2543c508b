// Deadlines on the real stack, with real grader sandboxes: a class whose deadline has passed
// refuses a student's Submit, an extension lets one student submit, a class that takes late work
// marks it late and counts it reduced (the gradebook and its CSV), exam mode pauses a sandbox at
// its student's deadline and keeps it so for the student; only the teacher sets any of it (403),
// and it survives a restart. `npm run class` sets it as the teacher would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClassDeadline, DueView } from '../../../src/contract/deadlines'
import type { Gradebook } from '../../../src/contract/gradebook'
import { setClassDeadline } from '../../class/classroom'
import { ClassDeadlines } from '../class/classDeadlines'
import { type GradedClass, passingSolution, startGradedClass } from '../testing/gradedClass'

const hour = 60 * 60 * 1000
const iso = (ms: number) => new Date(ms).toISOString()

describe('deadlines', () => {
  let graded: GradedClass
  const sessions: Record<string, Record<string, string>> = {}
  const owner = (method: string, path: string, body?: unknown) => graded.owner(method, path, body)
  const as = (who: string, method: string, path: string, body?: unknown) =>
    graded.as(sessions[who] ?? {}, method, path, body)
  const sandboxOf = (who: string) => graded.sandboxOf(who)
  const submit = (who: string) => as(who, 'POST', `/sandboxes/${sandboxOf(who)}/submissions`)
  const setDeadline = (settings: Record<string, unknown>) =>
    owner('PUT', '/classes/monday/deadline', {
      late: { kind: 'refuse' },
      counts: 'best',
      examMode: false,
      ...settings,
    })

  beforeAll(async () => {
    graded = await startGradedClass({ ada: passingSolution, ben: passingSolution }, 'deadline-labs-')
    for (const student of ['ada', 'ben']) sessions[student] = await graded.join(student)
  }, 60_000)
  afterAll(async () => {
    await graded?.close()
  })

  it('lets only the teacher set a deadline or an extension: a student gets 403, even for their own', async () => {
    for (const [method, path, body] of [
      [
        'PUT',
        '/classes/monday/deadline',
        { deadline: null, late: { kind: 'refuse' }, counts: 'best', examMode: false },
      ],
      ['GET', '/classes/monday/deadline', undefined],
      ['PUT', '/classes/monday/extensions/ada', { until: iso(Date.now() + hour) }],
      ['DELETE', '/classes/monday/extensions/ada', undefined],
    ] as const) {
      const answer = await as('ada', method, path, body)
      expect(answer.status, `${method} ${path}`).toBe(403)
    }
    expect((await owner('GET', '/classes/monday/deadline')).json).toEqual({
      late: { kind: 'refuse' },
      counts: 'best',
      examMode: false,
      extensions: {},
    })
    // Bad input says what is wrong; an unknown class or student is 404.
    expect((await setDeadline({ deadline: 'next friday' })).status).toBe(400)
    expect(
      (await setDeadline({ deadline: null, late: { kind: 'late', penaltyPercentPerDay: 150 } })).status,
    ).toBe(400)
    expect(
      (
        await owner('PUT', '/classes/tuesday/deadline', {
          deadline: null,
          late: { kind: 'refuse' },
          counts: 'best',
          examMode: false,
        })
      ).status,
    ).toBe(404)
    expect((await owner('PUT', '/classes/monday/extensions/cy', { until: iso(Date.now()) })).status).toBe(404)
  })

  it('refuses a submission after the deadline, and an extension lets one student submit', async () => {
    const past = iso(Date.now() - hour)
    expect((await setDeadline({ deadline: past })).status).toBe(200)
    const refused = await submit('ben')
    expect(refused.status, refused.text).toBe(409)
    expect(refused.json.message).toMatch(
      /^the deadline has passed \(.+\) and this class takes no late submissions$/,
    )
    // Nothing was kept of it.
    expect((await as('ben', 'GET', `/sandboxes/${sandboxOf('ben')}/submissions`)).json).toEqual([])

    const until = iso(Date.now() + 2 * hour)
    const extended = await owner('PUT', '/classes/monday/extensions/ada', { until })
    expect(extended.status, extended.text).toBe(200)
    expect((extended.json as ClassDeadline).extensions).toEqual({ ada: until })
    const due = (await as('ada', 'GET', `/sandboxes/${sandboxOf('ada')}/deadline`)).json as DueView
    expect(due).toMatchObject({ dueAt: until, extended: true, late: { kind: 'refuse' }, examMode: false })
    expect(Math.abs(Date.parse(due.now) - Date.now())).toBeLessThan(60_000)
    expect((await as('ben', 'GET', `/sandboxes/${sandboxOf('ben')}/deadline`)).json).toMatchObject({
      dueAt: past,
      extended: false,
    })
    // Another student's deadline is theirs alone.
    expect((await as('ben', 'GET', `/sandboxes/${sandboxOf('ada')}/deadline`)).status).toBe(403)

    const accepted = await submit('ada')
    expect(accepted.status, accepted.text).toBe(201)
    expect(accepted.json.daysLate).toBeUndefined()
    expect((await submit('ben')).status).toBe(409)
  }, 120_000)

  it('takes late work when the class does, marked late and counted less its penalty per started day', async () => {
    // Ben's deadline was 25 hours ago: two started days, 10% each.
    expect(
      (
        await setDeadline({
          deadline: iso(Date.now() - 25 * hour),
          late: { kind: 'late', penaltyPercentPerDay: 10 },
        })
      ).status,
    ).toBe(200)
    const late = await submit('ben')
    expect(late.status, late.text).toBe(201)
    expect(late.json).toMatchObject({ daysLate: 2, countedScore: 3.2, grade: { score: 4, maxScore: 4 } })

    const book = (await owner('GET', '/classes/monday/grades')).json as Gradebook
    expect(book).toMatchObject({ policy: 'best', late: { kind: 'late', penaltyPercentPerDay: 10 } })
    const ben = book.rows.find((r) => r.student === 'ben')
    expect(ben).toMatchObject({ late: true, counted: { score: 4, daysLate: 2, countedScore: 3.2 } })
    const ada = book.rows.find((r) => r.student === 'ada')
    expect(ada).toMatchObject({ late: false, extended: true, counted: { score: 4 } })
    const csv = (await owner('GET', '/classes/monday/grades?format=csv')).text
    expect(csv).toContain(`\r\nben,graded-sum,3.2,4,${ben?.counted?.submittedAt},true\r\n`)
    expect(csv).toContain(`\r\nada,graded-sum,4,4,${ada?.counted?.submittedAt},false\r\n`)

    // Which counts is the class's too: the last on-time one.
    const last = await setDeadline({
      deadline: book.deadline,
      counts: 'last',
      late: { kind: 'late', penaltyPercentPerDay: 10 },
    })
    expect(last.status, last.text).toBe(200)
    expect(((await owner('GET', '/classes/monday/grades')).json as Gradebook).policy).toBe('last')
  }, 120_000)

  it('pauses a sandbox at its student’s deadline in exam mode, and the student cannot resume it; the teacher can', async () => {
    expect(
      (await setDeadline({ deadline: iso(Date.now() - hour), examMode: true, late: { kind: 'refuse' } }))
        .status,
    ).toBe(200)
    // Exam mode looks again as the deadline is set; ada's extension keeps hers open.
    await expect
      .poll(() => graded.tp.platform.manager.get(sandboxOf('ben')).state, { timeout: 30_000 })
      .toBe('paused')
    expect(graded.tp.platform.manager.get(sandboxOf('ada')).state).toBe('running')
    expect((await as('ada', 'GET', `/sandboxes/${sandboxOf('ada')}/deadline`)).json).toMatchObject({
      extended: true,
      examMode: true,
    })

    const resumed = await as('ben', 'POST', `/sandboxes/${sandboxOf('ben')}/resume`, {})
    expect(resumed.status, resumed.text).toBe(403)
    expect(resumed.json.message).toMatch(/^the deadline has passed/)
    expect(graded.tp.platform.manager.get(sandboxOf('ben')).state).toBe('paused')
    // The teacher opens it to look, and exam mode does not close it again under them.
    expect((await owner('POST', `/sandboxes/${sandboxOf('ben')}/resume`, {})).status).toBe(200)
    await new Promise((r) => setTimeout(r, 11_000))
    expect(graded.tp.platform.manager.get(sandboxOf('ben')).state).toBe('running')
  }, 60_000)

  it('keeps the deadline in the data folder, and npm run class sets it as the teacher would', async () => {
    const kept = new ClassDeadlines(graded.tp.dataDir, () => {}).get('monday')
    expect(kept).toEqual((await owner('GET', '/classes/monday/deadline')).json)
    const access = {
      url: `http://127.0.0.1:${graded.tp.platform.port}`,
      apiKey: graded.tp.platform.apiKey,
      ideToken: graded.tp.platform.ideToken.current(),
    }
    const set = await setClassDeadline(access, 'monday', {
      deadline: '2030-06-01T17:00:00Z',
      late: { kind: 'late', penaltyPercentPerDay: 5 },
    })
    // What it left out stays.
    expect(set).toMatchObject({
      deadline: '2030-06-01T17:00:00.000Z',
      late: { kind: 'late', penaltyPercentPerDay: 5 },
      examMode: true,
      counts: 'best',
    })
    expect(Object.keys(set.extensions)).toEqual(['ada'])
    await expect(setClassDeadline(access, 'tuesday', { deadline: null })).rejects.toThrow(
      /404 no class 'tuesday'/,
    )
  })
})
