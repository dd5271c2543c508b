// Gradings by submission: cancel aborts each grading of one submission and waits for its end; a
// grader that ends anyway after its submission was deleted writes nothing (the store on disk).
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Grade } from './gradeSubmission'
import { GradingCancelled, GradingJobs } from './gradingJobs'
import { SubmissionStore } from './submissionStore'

const grade: Grade = {
  score: 1,
  maxScore: 1,
  tests: [],
  exitCode: 0,
  status: 'exit status 0',
  output: '',
  ignored: [],
}

describe('GradingJobs', () => {
  const made: string[] = []
  const store = () => {
    const dir = mkdtempSync(join(tmpdir(), 'gradings-'))
    made.push(dir)
    return { dir, store: new SubmissionStore(dir) }
  }
  const submit = (s: SubmissionStore) =>
    s.add(
      {
        sandboxId: 'ia1b2c3d4e5f6',
        templateID: 'lab',
        student: 'ada',
        submittedAt: new Date().toISOString(),
      },
      [{ path: 'solution.py', content: Buffer.from('x = 1\n') }],
    )
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it("cancels every grading of one submission, waits for their ends, and leaves the others' alone", async () => {
    const jobs = new GradingJobs()
    const one = { sandboxId: 'ia1', id: 'one' }
    const other = { sandboxId: 'ia1', id: 'other' }
    const ended: string[] = []
    // A grading that stops only when its signal aborts, a little after (its sandbox being removed).
    const grading = (name: string) => (signal: AbortSignal) =>
      new Promise<string>((_resolve, reject) =>
        signal.addEventListener('abort', () =>
          setTimeout(() => {
            ended.push(name)
            reject(signal.reason)
          }, 20),
        ),
      )
    const submitted = jobs.run(one, grading('submit'))
    const regraded = jobs.run(one, grading('regrade'))
    let release = (_: string) => {}
    const untouched = jobs.run(other, () => new Promise<string>((resolve) => (release = resolve)))
    expect(jobs.count(one)).toBe(2)
    const outcomes = Promise.allSettled([submitted, regraded])

    expect(await jobs.cancel(one)).toBe(2)
    // Both had ended by the time cancel answered.
    expect(ended.sort()).toEqual(['regrade', 'submit'])
    for (const outcome of await outcomes) {
      expect(outcome.status).toBe('rejected')
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(GradingCancelled)
    }
    expect(jobs.count(one)).toBe(0)
    expect(jobs.count(other)).toBe(1)
    expect(await jobs.cancel({ sandboxId: 'ia1', id: 'none' })).toBe(0)
    release('graded')
    expect(await untouched).toBe('graded')
    expect(jobs.count(other)).toBe(0)
  })

  it('keeps no grade of a submission deleted while a grader that ignores cancelling ran on', async () => {
    const { dir, store: kept } = store()
    const submission = submit(kept)
    const jobs = new GradingJobs()
    let finish = () => {}
    const graded = jobs.run(
      submission,
      () => new Promise<Grade>((resolve) => (finish = () => resolve(grade))),
    )

    expect(kept.remove(submission.sandboxId, submission.id)).toBe(true)
    const cancelled = jobs.cancel(submission)
    finish()
    await cancelled
    // Its grade came in after the deletion: the store keeps nothing and makes no folder again.
    expect(kept.setGrade(submission, await graded)).toBe(false)
    expect(existsSync(join(dir, 'submissions', submission.sandboxId))).toBe(false)
    expect(kept.all()).toEqual([])
  })

  it('keeps the grade of a submission still there', () => {
    const { store: kept } = store()
    const submission = submit(kept)
    expect(kept.has(submission.sandboxId, submission.id)).toBe(true)
    expect(kept.setGrade(submission, grade)).toBe(true)
    expect(kept.get(submission.sandboxId, submission.id)?.grade).toEqual(grade)
    expect(kept.has(submission.sandboxId, '../x')).toBe(false)
  })
})
