// The teacher's gradebook on the real stack, with real grader sandboxes: a class whose lab has a
// wrong hidden test, its students' submissions counted (the best of each), the CSV quoted and
// safe for a spreadsheet, one submission in full with its diff, the test fixed and every
// submission regraded; a student's or a guest's session gets none of it (403).
import { execFile } from 'node:child_process'
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gradebook, GradebookRow, SubmissionDetail } from '../../../src/contract/gradebook'
import { classGrades, classGradesCsv } from '../../class/classroom'
import { runBash } from '../launcher/testing/sandboxCalls'
import { browserCall } from '../testing/browserCall'
import { copyGradedLabs } from '../testing/gradedClass'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { runtimePort } from '../testing/runtimeBridge'

const projectRoot = join(import.meta.dirname, '..', '..', '..')
const hiddenTest = join('graded-sum', 'grader', 'test_hidden.py')
const correct = 'def total(numbers):\\n    return sum(numbers)\\n'
/** Spreadsheets take these for formulas; commas and quotes need CSV's quoting. */
const formula = '=HYPERLINK("http://evil.example","click")'
const plus = '+ben, "the second"'

describe('the gradebook', () => {
  let tp: TestPlatform
  let templatesDir: string
  const sandboxes: Record<string, { sandboxId: string; token: string }> = {}
  const sessions: Record<'student' | 'guest', Record<string, string>> = { student: {}, guest: {} }
  const submitted: Record<string, { id: string; contentHash: string }[]> = {}
  const owner = (method: string, path: string, body?: unknown) => ideCall(tp.platform, method, path, body)
  const as = (who: 'student' | 'guest', method: string, path: string) =>
    browserCall({ port: tp.platform.port, host: `localhost:${tp.platform.port}` }, method, path, {
      headers: sessions[who],
      ...(method === 'POST' ? { body: {} } : {}),
    })
  /** Writes the student's solution in their sandbox and submits it (as the teacher may). */
  const submit = async (student: string, solution?: string) => {
    const { sandboxId, token } = sandboxes[student] ?? { sandboxId: '', token: '' }
    if (solution) {
      const route = tp.platform.manager.route(sandboxId)
      if (route.kind !== 'running') throw new Error(`sandbox is ${route.kind}`)
      await runBash({ port: await runtimePort(route.runtime), token }, `printf '${solution}' > ~/solution.py`)
    }
    const answer = await owner('POST', `/sandboxes/${sandboxId}/submissions`)
    expect(answer.status, answer.text).toBe(201)
    submitted[student] = [...(submitted[student] ?? []), answer.json]
    return answer.json as { id: string; grade: { score: number } }
  }
  const rowOf = (book: Gradebook, student: string) =>
    book.rows.find((r) => r.student === student) as GradebookRow

  beforeAll(async () => {
    // The lab as a teacher got it wrong: its hidden test_positive wants 7 for [1, 2, 3].
    templatesDir = copyGradedLabs('gradebook-labs-')
    const test = join(templatesDir, hiddenTest)
    writeFileSync(test, readFileSync(test, 'utf8').replace('total([1, 2, 3]), 6', 'total([1, 2, 3]), 7'))
    tp = await startTestPlatform({ templatesDir })
    for (const student of ['ada', formula, plus, 'cy']) {
      const { sandboxID, envdAccessToken } = await tp.createSandbox({
        templateID: 'graded-sum',
        metadata: { class: 'monday', student },
      })
      sandboxes[student] = { sandboxId: sandboxID, token: envdAccessToken }
    }
    const ada = sandboxes.ada?.sandboxId
    const links = {
      student: await owner('POST', `/sandboxes/${ada}/join-links`, {}),
      guest: await owner('POST', `/sandboxes/${ada}/share-links`, { rights: 'edit', minutes: 30 }),
    }
    for (const who of ['student', 'guest'] as const) {
      expect(links[who].status, links[who].text).toBe(201)
      const joined = await browserCall(
        { port: tp.platform.port, host: `localhost:${tp.platform.port}` },
        'POST',
        '/join',
        { body: { token: links[who].json.token } },
      )
      expect(joined.status, joined.text).toBe(200)
      sessions[who] = {
        Cookie: String(joined.headers['set-cookie']).split(';')[0] as string,
        'X-Sandbox-IDE-Key': joined.json.pageKey as string,
      }
    }
  }, 60_000)
  afterAll(async () => {
    await tp.close()
    rmSync(templatesDir, { recursive: true, force: true })
  })

  it("counts each student's best submission, with attempts and times, and lists who submitted nothing", async () => {
    // Of 4 points (test_negative is worth 2), the right sum earns 3 while test_positive is wrong.
    expect((await submit('ada', correct)).grade.score).toBe(3)
    expect((await submit('ada', 'def total(numbers):\\n    return 0\\n')).grade.score).toBe(1)
    expect((await submit(formula, correct)).grade.score).toBe(3)
    expect((await submit(plus)).grade.score).toBe(1)

    const answer = await owner('GET', '/classes/monday/grades')
    expect(answer.status, answer.text).toBe(200)
    const book = answer.json as Gradebook
    expect(book).toMatchObject({ className: 'monday', policy: 'best', labs: ['graded-sum'] })
    expect(book.rows.map((r) => r.student).sort()).toEqual(['ada', 'cy', formula, plus].sort())
    const ada = rowOf(book, 'ada')
    // The first counts (the best); the last is the later one.
    expect(ada).toMatchObject({
      lab: 'graded-sum',
      attempts: 2,
      late: false,
      counted: { submissionId: submitted.ada?.[0]?.id, score: 3, maxScore: 4 },
      lastSubmittedAt: ada.submissions[1]?.submittedAt,
    })
    expect(ada.submissions.map((s) => s.score)).toEqual([3, 1])
    expect(rowOf(book, 'cy')).toEqual({
      student: 'cy',
      lab: 'graded-sum',
      attempts: 0,
      late: false,
      submissions: [],
    })
    expect((await owner('GET', '/classes/tuesday/grades')).status).toBe(404)
    expect((await owner('GET', '/classes/monday/grades?format=xlsx')).status).toBe(400)
  }, 120_000)

  it('gives the same gradebook as CSV, quoted per RFC 4180 and with formulas neutralised, to the API and the CLI', async () => {
    const answer = await owner('GET', '/classes/monday/grades?format=csv')
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8; header=present')
    expect(answer.headers['content-disposition']).toBe('attachment; filename="grades-monday.csv"')
    const book = (await owner('GET', '/classes/monday/grades')).json as Gradebook
    const lineOf = (student: string) => {
      const c = rowOf(book, student).counted
      return c ? `${c.score},${c.maxScore},${c.submittedAt},false` : ',,,'
    }
    const expected = new Map([
      ['ada', `ada,graded-sum,${lineOf('ada')}`],
      ['cy', `cy,graded-sum,${lineOf('cy')}`],
      [formula, `"'=HYPERLINK(""http://evil.example"",""click"")",graded-sum,${lineOf(formula)}`],
      [plus, `"'+ben, ""the second""",graded-sum,${lineOf(plus)}`],
    ])
    const csv = [
      'student,lab,score,max,submitted_at,late',
      ...book.rows.map((r) => expected.get(r.student)),
      '',
    ].join('\r\n')
    expect(answer.text).toBe(csv)

    // `npm run class -- --grades monday [--csv]` asks the same.
    const access = { url: tp.url, apiKey: tp.apiKey, ideToken: tp.platform.ideToken.current() }
    expect(await classGrades(access, 'monday')).toEqual(book)
    await expect(classGradesCsv(access, 'tuesday')).rejects.toThrow("404 no class 'tuesday' on this stack")
    // Asynchronously: the platform answers from this very process.
    const cli = async (...args: string[]) => {
      const flags = ['--url', tp.url, '--api-key', tp.apiKey, '--data', tp.dataDir, ...args]
      const run = promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'server/class/cli.ts', ...flags],
        {
          cwd: projectRoot,
          encoding: 'utf8',
        },
      )
      return (await run).stdout
    }
    expect(await cli('--grades', 'monday', '--csv')).toBe(csv)
    const table = (await cli('--grades', 'monday')).split('\n')
    expect(table[0]).toMatch(/^Student +Lab +Score \(best\) +Attempts +Last submitted$/)
    expect(table.find((line) => line.startsWith('ada '))).toMatch(/^ada +graded-sum +3 \/ 4 +2 +\d{4}-/)
    expect(table.find((line) => line.startsWith('cy '))).toMatch(/^cy +graded-sum +— +0 +—$/)
  }, 60_000)

  it('shows the teacher one submission: its files, the grader output and a diff against the starting files', async () => {
    const sandboxId = sandboxes.ada?.sandboxId
    const first = submitted.ada?.[0]?.id
    const answer = await owner('GET', `/classes/monday/submissions/${sandboxId}/${first}`)
    expect(answer.status, answer.text).toBe(200)
    const detail = answer.json as SubmissionDetail
    expect(detail).toMatchObject({
      student: 'ada',
      lab: 'graded-sum',
      submissionId: first,
      className: 'monday',
    })
    expect(detail.files).toEqual([
      { path: 'solution.py', size: 44, text: 'def total(numbers):\n    return sum(numbers)\n' },
    ])
    expect(detail.grade?.output).toContain('test_positive')
    expect(detail.grade?.tests.find((t) => t.name === 'test_positive')?.outcome).toBe('failed')
    expect(detail.diff).toBe(
      [
        '--- a/solution.py',
        '+++ b/solution.py',
        '@@ -1,3 +1,2 @@',
        ' def total(numbers):',
        '-    """The sum of a list of numbers."""',
        '-    return 0',
        '+    return sum(numbers)',
        '',
      ].join('\n'),
    )
    // Not of this class, or no such one.
    expect((await owner('GET', `/classes/tuesday/submissions/${sandboxId}/${first}`)).status).toBe(404)
    expect((await owner('GET', `/classes/monday/submissions/${sandboxId}/nope`)).status).toBe(404)
  })

  it("refuses a student's and a guest's session everything of the gradebook (403)", async () => {
    const sandboxId = sandboxes.ada?.sandboxId
    const first = submitted.ada?.[0]?.id
    for (const who of ['student', 'guest'] as const) {
      for (const [method, path] of [
        ['GET', '/classes/monday/grades'],
        ['GET', '/classes/monday/grades?format=csv'],
        ['GET', `/classes/monday/submissions/${sandboxId}/${first}`],
        ['POST', '/classes/monday/regrade'],
      ] as const) {
        const answer = await as(who, method, path)
        expect(answer.status, `${who} ${method} ${path}`).toBe(403)
        expect(answer.text).not.toContain('graded-sum')
      }
    }
  })

  it('regrades every submission against the fixed test: grades replaced, snapshots unchanged', async () => {
    const test = join(templatesDir, hiddenTest)
    writeFileSync(test, readFileSync(test, 'utf8').replace('total([1, 2, 3]), 7', 'total([1, 2, 3]), 6'))
    const adaSandbox = sandboxes.ada?.sandboxId ?? ''
    const first = submitted.ada?.[0]?.id ?? ''
    const snapshot = join(tp.dataDir, 'submissions', adaSandbox, first)
    const before = readFileSync(join(snapshot, 'submission.json'), 'utf8')

    expect((await owner('POST', '/classes/monday/regrade', { lab: 'graded-exit' })).status).toBe(404)
    expect((await owner('POST', '/classes/monday/regrade', { lab: 5 })).status).toBe(400)
    const answer = await owner('POST', '/classes/monday/regrade', { lab: 'graded-sum' })
    expect(answer.status, answer.text).toBe(200)
    // Four submissions; the two with the right sum earn the point they were denied.
    expect(answer.json).toEqual({ regraded: 4, changed: 2, failed: [] })

    const book = (await owner('GET', '/classes/monday/grades')).json as Gradebook
    expect(rowOf(book, 'ada').counted).toMatchObject({ submissionId: first, score: 4, maxScore: 4 })
    expect(rowOf(book, 'ada').submissions.map((s) => s.score)).toEqual([4, 1])
    expect(rowOf(book, formula).counted?.score).toBe(4)
    expect(rowOf(book, plus).counted?.score).toBe(1)
    const detail = (await owner('GET', `/classes/monday/submissions/${adaSandbox}/${first}`)).json
    expect(detail.grade.tests.every((t: { outcome: string }) => t.outcome === 'passed')).toBe(true)

    // The snapshot is as it was: its record, its files (read-only) and its hash.
    expect(readFileSync(join(snapshot, 'submission.json'), 'utf8')).toBe(before)
    expect(readFileSync(join(snapshot, 'files', 'solution.py'), 'utf8')).toContain('return sum(numbers)')
    expect(statSync(join(snapshot, 'files', 'solution.py')).mode & 0o222).toBe(0)
    expect(detail.contentHash).toBe(submitted.ada?.[0]?.contentHash)
    // No grader sandbox is left.
    expect(tp.platform.manager.list().length).toBe(Object.keys(sandboxes).length)
  }, 120_000)
})
