// Similar submissions on the real stack: three students of a class submit (graded in grader
// sandboxes as any Submit); the one who copied another's work with every name changed is the
// top pair, with the lines that match, the one who wrote their own is far below; a student's
// session gets 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SimilarityReport } from '../../../src/contract/similarity'
import { adaTotal, cyTotal, renamed } from '../class/grading/testing/copiedWork'
import { type GradedClass, startGradedClass } from '../testing/gradedClass'

const ada = `${adaTotal}

def mean(numbers):
    if len(numbers) == 0:
        raise ValueError("no numbers")
    return total(numbers) / len(numbers)
`
/** Ada's, every name changed and a comment added. */
const ben = renamed(ada).replace('    acc = 0\n', '    acc = 0  # start from nothing\n')
const cy = cyTotal

describe('similar submissions', () => {
  let graded: GradedClass
  let session: Record<string, string> = {}
  const owner = (path: string) => graded.owner('GET', path)

  beforeAll(async () => {
    graded = await startGradedClass({ ada, ben, cy }, 'similar-labs-')
    for (const student of ['ada', 'ben', 'cy']) await graded.submit(student)
    session = await graded.join('ada')
  }, 180_000)
  afterAll(async () => {
    await graded?.close()
  })

  it("ranks the renamed copy first, with the lines that match, and the student's own work far below", async () => {
    const answer = await owner('/classes/monday/similar?lab=graded-sum')
    expect(answer.status, answer.text).toBe(200)
    const report = answer.json as SimilarityReport
    expect(report).toMatchObject({ className: 'monday', lab: 'graded-sum', compared: 3, skipped: [] })
    const [top] = report.pairs
    expect([top?.a.student, top?.b.student].sort()).toEqual(['ada', 'ben'])
    expect(top?.score).toBeGreaterThan(0.8)
    expect(top?.a.sandboxId).toBe(graded.sandboxOf(top?.a.student ?? ''))
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
    const refused = await graded.as(session, 'GET', '/classes/monday/similar?lab=graded-sum')
    expect(refused.status).toBe(403)
    expect(refused.text).not.toContain('solution.py')
  })

  it('compares a submission deleted meanwhile whole or not at all (never a 500)', async () => {
    const extra = await graded.submit('cy')
    const listed = await graded.owner('GET', `/sandboxes/${graded.sandboxOf('cy')}/submissions`)
    const before = (listed.json as { id: string }[]).length
    // The comparison and the delete asked at once: the delete lands while the lab is read.
    const [answer, deleted] = await Promise.all([
      owner('/classes/monday/similar?lab=graded-sum'),
      graded.owner('DELETE', `/classes/monday/submissions/${graded.sandboxOf('cy')}/${extra}`),
    ])
    expect(deleted.status, deleted.text).toBe(204)
    expect(answer.status, answer.text).toBe(200)
    const report = answer.json as SimilarityReport
    expect(report.compared).toBe(3)
    // Cy's latest is now the first again, or was the extra one compared whole before the delete.
    for (const pair of report.pairs)
      for (const side of [pair.a, pair.b]) expect(side.submissionId).toBeTruthy()
    const after = await graded.owner('GET', `/sandboxes/${graded.sandboxOf('cy')}/submissions`)
    expect((after.json as { id: string }[]).length).toBe(before - 1)
  })
})
