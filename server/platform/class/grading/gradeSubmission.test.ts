// Grading on the real stack: each submission in a fresh grader sandbox made from a lab of
// testing/labs/, with the hidden tests added, its report read, and the sandbox gone after.
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runBash } from '../../launcher/testing/sandboxCalls'
import { startTestPlatform, type TestPlatform } from '../../testing/platformFixture'
import { runtimePort } from '../../testing/runtimeBridge'
import { gradeSubmission, NotGradableError } from './gradeSubmission'
import { localGraders } from './localGraders'
import { SubmissionError, type SubmittedFile } from './submissionFiles'

const labsDir = join(import.meta.dirname, 'testing', 'labs')
const file = (path: string, text: string): SubmittedFile => ({
  path,
  content: new TextEncoder().encode(text),
})
const solution = (body: string) => file('solution.py', `def total(numbers):\n    ${body}\n`)

describe('grading a submission', () => {
  let tp: TestPlatform
  const grade = (lab: string, files: SubmittedFile[]) =>
    gradeSubmission(
      { graders: localGraders(tp.platform.manager), templates: tp.platform.templates },
      lab,
      files,
    )

  beforeAll(async () => {
    tp = await startTestPlatform({ templatesDir: labsDir })
  })
  afterAll(async () => {
    await tp.close()
  })
  afterEach(() => {
    // Every grader sandbox is gone, whatever the grade.
    expect(tp.platform.manager.list()).toEqual([])
  })

  it('gives a correct submission every point of the hidden tests', async () => {
    const result = await grade('graded-sum', [solution('return sum(numbers)')])
    expect(result).toMatchObject({ score: 4, maxScore: 4, exitCode: 0, ignored: [] })
    expect(result.problem).toBeUndefined()
    expect(result.tests.map((t) => [t.name, t.outcome, t.earned, t.points])).toEqual([
      ['test_empty', 'passed', 1, 1],
      ['test_negative', 'passed', 2, 2],
      ['test_positive', 'passed', 1, 1],
    ])
  }, 60_000)

  it('gives a wrong one the points of the tests it passes, with the failures’ messages; its own tests change nothing', async () => {
    const result = await grade('graded-sum', [
      solution('return sum(n for n in numbers if n > 0)'),
      // Rewritten tests and a planted hidden one: the lab's own stand instead.
      file('grader/test_hidden.py', 'import unittest\n'),
      file('tests/test_visible.py', 'import unittest\n'),
      file('notes/extra.txt', 'a file of the student’s own\n'),
    ])
    expect(result).toMatchObject({ score: 2, maxScore: 4, exitCode: 1 })
    expect(result.ignored).toEqual(['grader/test_hidden.py', 'tests/test_visible.py'])
    const negative = result.tests.find((t) => t.name === 'test_negative')
    expect(negative).toMatchObject({ outcome: 'failed', earned: 0, points: 2, className: 'TestHidden' })
    expect(negative?.message).toContain('5 != 3')
  }, 60_000)

  it('cuts a submission that never ends at the lab’s time limit and fails it for that', async () => {
    const started = Date.now()
    const result = await grade('graded-sum', [file('solution.py', 'while True:\n    pass\n')])
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(result).toMatchObject({ score: 0, tests: [], problem: 'cut at its time limit of 5 s' })
  }, 60_000)

  it('grades by exit status without a report, in a sandbox with no network out', async () => {
    const passed = await grade('graded-exit', [solution('return sum(numbers)')])
    expect(passed).toMatchObject({ score: 1, maxScore: 1, tests: [], exitCode: 0 })
    if (tp.platform.launcher.network !== 'host') {
      expect(passed.output).toBe('routes out: 0\n')
      // Where sandboxes do get out, an ordinary one has its way out: the grader's is taken away.
      if (tp.platform.launcher.network === 'own') {
        const { sandboxID, envdAccessToken } = await tp.createSandbox()
        const route = tp.platform.manager.route(sandboxID)
        if (route.kind !== 'running') throw new Error(`sandbox is ${route.kind}`)
        const sandbox = { port: await runtimePort(route.runtime), token: envdAccessToken }
        expect((await runBash(sandbox, 'ip route | grep -c ^default')).stdout).toBe('1\n')
        await tp.platform.manager.kill(sandboxID)
      }
    }
    const failed = await grade('graded-exit', [])
    expect(failed).toMatchObject({ score: 0, maxScore: 1, exitCode: 1 })
    expect(failed.output).toContain('AssertionError')
  }, 60_000)

  it('fails a submission whose report is not well-formed XML, saying why', async () => {
    const result = await grade('graded-bad-report', [])
    expect(result).toMatchObject({ score: 0, maxScore: 0, tests: [] })
    expect(result.problem).toMatch(/the report is not XML: .*<testcase> is never closed|closes <testcase>/)
  }, 60_000)

  it('never reads a report that is a link out of the sandbox’s home (the host would follow it)', async () => {
    const result = await grade('graded-link-report', [])
    expect(result).toMatchObject({ score: 0, maxScore: 0, tests: [] })
    expect(result.problem).toBe('the report report.xml leads out of the home folder')
  }, 60_000)

  it('refuses a lab without grade and a submission with a path out of the home, before any sandbox', async () => {
    await expect(grade('base', [])).rejects.toThrow(NotGradableError)
    await expect(grade('graded-sum', [file('../escape.py', 'x')])).rejects.toThrow(SubmissionError)
    await expect(grade('graded-sum', [file('/etc/passwd', 'x')])).rejects.toThrow(SubmissionError)
  })
})
