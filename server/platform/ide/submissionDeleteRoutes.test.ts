// Deleting submissions on the real stack: the teacher deletes one, then all of a student's for a
// lab; each snapshot is gone from the data folder and the gradebook counts without it; a
// student's session gets 403 and deletes nothing; ending the class keeps every submission.
// A submission being graded is deleted too: waiting for a grader it leaves the line, running its
// grader sandbox is killed, in a regrade it is left out; its Submit answers 409 and no grade of
// it is ever kept.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Gradebook } from '../../../src/contract/gradebook'
import { graderSlots } from '../class/grading/graderSlots'
import { type GradedClass, passingSolution, startGradedClass } from '../testing/gradedClass'

describe('deleting submissions', () => {
  let graded: GradedClass
  let studentSession: Record<string, string> = {}
  const submitted: Record<string, string[]> = {}
  const owner = (method: string, path: string) => graded.owner(method, path)
  const asStudent = (method: string, path: string) => graded.as(studentSession, method, path)
  const sandboxOf = (student: string) => graded.sandboxOf(student)
  const submissionsDir = (student: string) => join(graded.tp.dataDir, 'submissions', sandboxOf(student))
  const snapshot = (student: string, id: string) => join(submissionsDir(student), id)
  const grades = async () => (await owner('GET', '/classes/monday/grades')).json as Gradebook
  const attemptsOf = (book: Gradebook, student: string) =>
    book.rows.find((r) => r.student === student)?.submissions.map((s) => s.submissionId)

  const graders = () => graded.tp.platform.manager.list().filter((r) => r.metadata.purpose === 'grader')
  /** Ada's submissions the test did not know of: the one being graded now. */
  const newOne = async () => {
    const listed = await owner('GET', `/sandboxes/${sandboxOf('ada')}/submissions`)
    const fresh = (listed.json as { id: string }[]).filter((s) => !submitted.ada?.includes(s.id))
    expect(fresh).toHaveLength(1)
    return fresh[0]?.id ?? ''
  }
  /** Takes every grader's turn until released: the next grading waits in line. */
  const holdGraders = () => {
    let release = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const held = Array.from({ length: graderSlots.size }, () => graderSlots.run(() => gate))
    return async () => {
      release()
      await Promise.all(held)
    }
  }

  beforeAll(async () => {
    graded = await startGradedClass({ ada: passingSolution, ben: passingSolution }, 'delete-labs-')
    studentSession = await graded.join('ada')
    for (const student of ['ada', 'ada', 'ada', 'ben'])
      submitted[student] = [...(submitted[student] ?? []), await graded.submit(student)]
  }, 180_000)
  afterAll(async () => {
    await graded?.close()
  })

  it("refuses a student's session (403), and deletes nothing", async () => {
    const first = submitted.ada?.[0] ?? ''
    for (const path of [
      `/classes/monday/submissions/${sandboxOf('ada')}/${first}`,
      '/classes/monday/submissions?student=ada&lab=graded-sum',
    ]) {
      const answer = await asStudent('DELETE', path)
      expect(answer.status, path).toBe(403)
    }
    expect(existsSync(join(snapshot('ada', first), 'files', 'solution.py'))).toBe(true)
    expect(attemptsOf(await grades(), 'ada')).toEqual(submitted.ada)
  })

  it('deletes one submission: its snapshot leaves the disk and the gradebook counts the others', async () => {
    const [first, second, third] = submitted.ada ?? []
    const path = `/classes/monday/submissions/${sandboxOf('ada')}/${second}`
    expect((await owner('DELETE', `/classes/tuesday/submissions/${sandboxOf('ada')}/${second}`)).status).toBe(
      404,
    )
    const answer = await owner('DELETE', path)
    expect(answer.status, answer.text).toBe(204)
    expect(existsSync(snapshot('ada', second ?? ''))).toBe(false)
    // Nothing left aside in the folder either.
    expect(readdirSync(submissionsDir('ada')).sort()).toEqual([first, third].sort())
    const book = await grades()
    expect(attemptsOf(book, 'ada')).toEqual([first, third])
    expect(book.rows.find((r) => r.student === 'ada')?.attempts).toBe(2)
    expect((await owner('GET', path)).status).toBe(404)
    expect((await owner('DELETE', path)).status).toBe(404)
  })

  it('deletes a submission waiting for a grader: it leaves the line, and its Submit says it was deleted', async () => {
    const before = attemptsOf(await grades(), 'ada')
    const release = holdGraders()
    try {
      const submit = owner('POST', `/sandboxes/${sandboxOf('ada')}/submissions`)
      await vi.waitFor(() => expect(graderSlots.load.waiting).toBe(1), { timeout: 10_000 })
      const id = await newOne()
      const answer = await owner('DELETE', `/classes/monday/submissions/${sandboxOf('ada')}/${id}`)
      expect(answer.status, answer.text).toBe(204)
      expect(graderSlots.load.waiting).toBe(0)
      const refused = await submit
      expect(refused.status).toBe(409)
      expect(refused.json.message).toMatch(/deleted while it was being graded/)
      expect(existsSync(snapshot('ada', id))).toBe(false)
      // It never reached a grader.
      expect(graders()).toEqual([])
    } finally {
      await release()
    }
    expect(attemptsOf(await grades(), 'ada')).toEqual(before)
  }, 60_000)

  it('deletes a submission while its grader runs: the grader sandbox is killed, and no grade is kept', async () => {
    const before = attemptsOf(await grades(), 'ada')
    // Graded for as long as the lab allows (60 s here), saying when it started.
    await graded.writeSolution(
      'ada',
      `import time\nopen('started', 'w').close()\ntime.sleep(600)\n\n${passingSolution}`,
    )
    try {
      const submit = owner('POST', `/sandboxes/${sandboxOf('ada')}/submissions`)
      const grader = await vi.waitFor(
        () => {
          const [running] = graders()
          expect(
            running && existsSync(join(graded.tp.platform.manager.homeDir(running.sandboxID), 'started')),
          ).toBe(true)
          return running?.sandboxID ?? ''
        },
        { timeout: 40_000, interval: 100 },
      )
      const id = await newOne()
      const started = Date.now()
      const answer = await owner('DELETE', `/classes/monday/submissions/${sandboxOf('ada')}/${id}`)
      expect(answer.status, answer.text).toBe(204)
      // Once deleted, its grader is gone: the command was not left to run its 60 s.
      expect(graded.tp.platform.manager.has(grader)).toBe(false)
      expect(graders()).toEqual([])
      const refused = await submit
      expect(Date.now() - started).toBeLessThan(30_000)
      expect(refused.status, refused.text).toBe(409)
      expect(refused.json.message).toMatch(/deleted while it was being graded/)
      expect(existsSync(snapshot('ada', id))).toBe(false)
      const listed = await owner('GET', `/sandboxes/${sandboxOf('ada')}/submissions`)
      expect((listed.json as { id: string }[]).map((s) => s.id)).toEqual(before)
    } finally {
      await graded.writeSolution('ada', passingSolution)
    }
    expect(attemptsOf(await grades(), 'ada')).toEqual(before)
  }, 90_000)

  it('deletes a submission a regrade is about to grade: the regrade leaves it out, and keeps no grade of it', async () => {
    const fresh = await owner('POST', `/sandboxes/${sandboxOf('ada')}/submissions`)
    expect(fresh.status, fresh.text).toBe(201)
    const id = fresh.json.id as string
    const others = (await grades()).rows.reduce((n, row) => n + row.attempts, 0) - 1
    const release = holdGraders()
    let regrading: ReturnType<typeof owner> | undefined
    try {
      regrading = graded.owner('POST', '/classes/monday/regrade', {})
      // The regrade has taken its turns in line: some of its gradings wait for a grader.
      await vi.waitFor(() => expect(graderSlots.load.waiting).toBeGreaterThan(0), { timeout: 10_000 })
      const answer = await owner('DELETE', `/classes/monday/submissions/${sandboxOf('ada')}/${id}`)
      expect(answer.status, answer.text).toBe(204)
    } finally {
      await release()
    }
    const regraded = await regrading
    expect(regraded?.status, regraded?.text).toBe(200)
    expect(regraded?.json).toEqual({ regraded: others, changed: 0, failed: [] })
    expect(existsSync(snapshot('ada', id))).toBe(false)
    expect(attemptsOf(await grades(), 'ada')).not.toContain(id)
    expect(graders()).toEqual([])
  }, 120_000)

  it("keeps every submission when the class ends, then deletes all of a student's for a lab", async () => {
    expect((await owner('DELETE', '/classes/monday')).status).toBe(204)
    expect(graded.tp.platform.manager.list()).toEqual([])
    // The gradebook outlives the sandboxes: it is made from the snapshots.
    const ended = await grades()
    expect(attemptsOf(ended, 'ada')).toHaveLength(2)
    expect(attemptsOf(ended, 'ben')).toEqual(submitted.ben)

    expect((await owner('DELETE', '/classes/monday/submissions?student=ada')).status).toBe(400)
    expect((await owner('DELETE', '/classes/monday/submissions?student=cy&lab=graded-sum')).status).toBe(404)
    const answer = await owner('DELETE', '/classes/monday/submissions?student=ada&lab=graded-sum')
    expect(answer.status, answer.text).toBe(200)
    expect(answer.json).toEqual({ deleted: 2 })
    expect(existsSync(submissionsDir('ada'))).toBe(false)
    const book = await grades()
    expect(book.rows.map((r) => r.student)).toEqual(['ben'])
    expect(existsSync(join(snapshot('ben', submitted.ben?.[0] ?? ''), 'files', 'solution.py'))).toBe(true)
  })
})
