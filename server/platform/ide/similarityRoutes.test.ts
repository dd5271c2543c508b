// Similar submissions on the real stack: three students of a class submit (graded in grader
// sandboxes as any Submit); the one who copied another's work with every name changed is the
// top pair, with the lines that match, the one who wrote their own is far below; a student's
// session gets 403.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SimilarityReport } from '../../../src/contract/similarity'
import { runBash } from '../launcher/testing/sandboxCalls'
import { browserCall } from '../testing/browserCall'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { runtimePort } from '../testing/runtimeBridge'

const labs = join(import.meta.dirname, '..', 'class', 'grading', 'testing', 'labs')

const ada = `def total(numbers):
    """The sum of a list of numbers."""
    result = 0
    for number in numbers:
        if isinstance(number, bool):
            raise TypeError("not a number")
        result = result + number
    return result


def mean(numbers):
    if len(numbers) == 0:
        raise ValueError("no numbers")
    return total(numbers) / len(numbers)
`
/** Ada's, every name changed and a comment added. */
const ben = ada
  .replaceAll('numbers', 'xs')
  .replaceAll('number', 'x')
  .replaceAll('result', 'acc')
  .replace('    acc = 0\n', '    acc = 0  # start from nothing\n')
const cy = `def total(numbers):
    """The sum of a list of numbers."""
    return sum(numbers)
`

describe('similar submissions', () => {
  let tp: TestPlatform
  let templatesDir: string
  const sandboxes: Record<string, string> = {}
  let session: Record<string, string> = {}
  const owner = (path: string) => ideCall(tp.platform, 'GET', path)

  beforeAll(async () => {
    templatesDir = mkdtempSync(join(tmpdir(), 'similar-labs-'))
    cpSync(labs, templatesDir, { recursive: true })
    const manifest = join(templatesDir, 'graded-sum', '.lab', 'lab.json')
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replace('"timeoutSeconds": 5', '"timeoutSeconds": 60'),
    )
    tp = await startTestPlatform({ templatesDir })
    for (const [student, code] of Object.entries({ ada, ben, cy })) {
      const { sandboxID, envdAccessToken } = await tp.createSandbox({
        templateID: 'graded-sum',
        metadata: { class: 'monday', student },
      })
      sandboxes[student] = sandboxID
      const route = tp.platform.manager.route(sandboxID)
      if (route.kind !== 'running') throw new Error(`sandbox is ${route.kind}`)
      const encoded = Buffer.from(code).toString('base64')
      await runBash(
        { port: await runtimePort(route.runtime), token: envdAccessToken },
        `echo ${encoded} | base64 -d > ~/solution.py`,
      )
      const answer = await ideCall(tp.platform, 'POST', `/sandboxes/${sandboxID}/submissions`)
      expect(answer.status, answer.text).toBe(201)
    }
    const link = await ideCall(tp.platform, 'POST', `/sandboxes/${sandboxes.ada}/join-links`, {})
    const joined = await browserCall(
      { port: tp.platform.port, host: `localhost:${tp.platform.port}` },
      'POST',
      '/join',
      { body: { token: link.json.token } },
    )
    expect(joined.status, joined.text).toBe(200)
    session = {
      Cookie: String(joined.headers['set-cookie']).split(';')[0] as string,
      'X-Sandbox-IDE-Key': joined.json.pageKey as string,
    }
  }, 180_000)
  afterAll(async () => {
    await tp.close()
    rmSync(templatesDir, { recursive: true, force: true })
  })

  it("ranks the renamed copy first, with the lines that match, and the student's own work far below", async () => {
    const answer = await owner('/classes/monday/similar?lab=graded-sum')
    expect(answer.status, answer.text).toBe(200)
    const report = answer.json as SimilarityReport
    expect(report).toMatchObject({ className: 'monday', lab: 'graded-sum', compared: 3, skipped: [] })
    const [top] = report.pairs
    expect([top?.a.student, top?.b.student].sort()).toEqual(['ada', 'ben'])
    expect(top?.score).toBeGreaterThan(0.8)
    expect(top?.a.sandboxId).toBe(sandboxes[top?.a.student ?? ''])
    expect(top?.regions[0]).toMatchObject({ a: { path: 'solution.py' }, b: { path: 'solution.py' } })
    expect(report.ignored).toEqual({ starting: expect.any(Number), common: 0 })
    for (const pair of report.pairs.filter((p) => [p.a.student, p.b.student].includes('cy')))
      expect(pair.score).toBeLessThan(0.3)
  })

  it('says what is wrong with the question, and refuses a student (403)', async () => {
    expect((await owner('/classes/monday/similar')).status).toBe(400)
    expect((await owner('/classes/monday/similar?lab=graded-sum&limit=0')).status).toBe(400)
    expect((await owner('/classes/monday/similar?lab=graded-exit')).status).toBe(404)
    expect((await owner('/classes/tuesday/similar?lab=graded-sum')).status).toBe(404)
    const refused = await browserCall(
      { port: tp.platform.port, host: `localhost:${tp.platform.port}` },
      'GET',
      '/classes/monday/similar?lab=graded-sum',
      { headers: session },
    )
    expect(refused.status).toBe(403)
    expect(refused.text).not.toContain('solution.py')
  })
})
