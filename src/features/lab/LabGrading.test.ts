// A graded lab's Submit, feedback and history against a fake of the domain's submissions: what it
// asks the stack, when it asks the student first, and what it keeps of the answers.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DueView } from '../../contract/deadlines'
import type { SubmissionView } from '../../contract/submissions'
import type { LabSubmissions } from '../../sandbox/labSubmissions'
import { SandboxError } from '../../sandbox/sandboxError'
import { dueRefreshMs, LabGrading, type UnsavedFiles } from './LabGrading'

const submission = (n: number, score: number, maxScore = 4): SubmissionView => ({
  id: `s${n}`,
  sandboxId: 'sbx',
  templateID: 'graded-sum',
  student: 'ada',
  submittedAt: new Date(Date.UTC(2025, 0, 1, 10, n)).toISOString(),
  contentHash: `sha256:${n}`,
  files: ['solution.py'],
  grade: {
    score,
    maxScore,
    tests: [
      { name: 'test_empty', outcome: 'passed', earned: 1, points: 1 },
      {
        name: 'test_negative',
        outcome: score === maxScore ? 'passed' : 'failed',
        message: '0 != 3',
        earned: 0,
        points: 2,
      },
    ],
  },
})

/** A class without a deadline, as the stack says it now. */
const noDue = (): DueView => ({
  dueAt: null,
  extended: false,
  late: { kind: 'refuse' },
  examMode: false,
  now: new Date().toISOString(),
})

/** A promise and its resolver, to hold an answer of the stack back. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (err: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** The stack's side: the submissions it keeps (oldest first, as it answers), undefined for an ungraded lab. */
function fakeStack(earlier: SubmissionView[] | undefined, due: () => DueView = noDue) {
  const kept = earlier && [...earlier]
  const submissions: LabSubmissions = {
    due: vi.fn(async () => due()),
    list: vi.fn(async () => kept && [...kept]),
    submit: vi.fn(async () => {
      const made = submission((kept?.length ?? 0) + 1, 4)
      kept?.push(made)
      return made
    }),
  }
  return { submissions }
}

/** An editor whose open files `dirty` are unsaved; Save All saves all but those in `stuck`. */
function fakeEditor(dirty: string[], stuck: string[] = []) {
  let unsaved = [...dirty]
  const saveAll = vi.fn(async () => {
    unsaved = unsaved.filter((p) => stuck.includes(p))
  })
  const editor: UnsavedFiles = { unsavedPaths: () => unsaved, saveAll }
  return { editor, saveAll }
}

async function ready(grading: LabGrading) {
  await vi.waitFor(() => expect(grading.getSnapshot().history.kind).not.toBe('loading'))
  return grading
}

describe('LabGrading', () => {
  it('lists the earlier submissions newest first, and offers Submit only while the sandbox runs', async () => {
    const { submissions } = fakeStack([submission(1, 1), submission(2, 3)])
    let running = true
    const grading = await ready(new LabGrading(submissions, fakeEditor([]).editor, () => running))
    const { history } = grading.getSnapshot()
    expect(history.kind === 'ready' && history.submissions.map((s) => s.id)).toEqual(['s2', 's1'])
    expect(grading.canSubmit).toBe(true)
    running = false
    expect(grading.canSubmit).toBe(false)
  })

  it('has no Submit where the stack does not grade the lab (its 409)', async () => {
    const { submissions } = fakeStack(undefined)
    const grading = await ready(new LabGrading(submissions, fakeEditor([]).editor, () => true))
    expect(grading.getSnapshot().history).toEqual({ kind: 'not-graded' })
    expect(grading.canSubmit).toBe(false)
    await grading.requestSubmit()
    expect(submissions.submit).not.toHaveBeenCalled()
  })

  it('submits at once when everything is saved, says it is grading meanwhile, and puts the answer first', async () => {
    const { submissions } = fakeStack([submission(1, 1)])
    const answer = deferred<SubmissionView>()
    vi.mocked(submissions.submit).mockReturnValueOnce(answer.promise)
    const grading = await ready(new LabGrading(submissions, fakeEditor([]).editor, () => true))
    const submitting = grading.requestSubmit()
    expect(grading.getSnapshot().submit).toEqual({ kind: 'grading' })
    expect(grading.canSubmit).toBe(false)
    // A second click while grading submits nothing more.
    await grading.requestSubmit()
    expect(submissions.submit).toHaveBeenCalledTimes(1)
    answer.resolve(submission(2, 4))
    await submitting
    const snap = grading.getSnapshot()
    expect(snap.submit).toEqual({ kind: 'done', submission: submission(2, 4) })
    expect(snap.history.kind === 'ready' && snap.history.submissions.map((s) => s.id)).toEqual(['s2', 's1'])
    expect(grading.canSubmit).toBe(true)
  })

  it('asks first about unsaved files: Cancel submits nothing, the disk’s version submits without saving', async () => {
    const { submissions } = fakeStack([])
    const { editor, saveAll } = fakeEditor(['/home/user/solution.py'])
    const grading = await ready(new LabGrading(submissions, editor, () => true))
    await grading.requestSubmit()
    expect(grading.getSnapshot().submit).toEqual({ kind: 'asking', unsaved: ['/home/user/solution.py'] })
    expect(grading.canSubmit).toBe(false)
    await grading.answerUnsaved('cancel')
    expect(grading.getSnapshot().submit).toEqual({ kind: 'idle' })
    expect(submissions.submit).not.toHaveBeenCalled()

    await grading.requestSubmit()
    await grading.answerUnsaved('on-disk')
    expect(saveAll).not.toHaveBeenCalled()
    expect(submissions.submit).toHaveBeenCalledTimes(1)
    // An answer that comes after the question is gone (the dialog closing) changes nothing.
    await grading.answerUnsaved('cancel')
    expect(grading.getSnapshot().submit.kind).toBe('done')
  })

  it('saves every file before submitting when asked to, and submits nothing when one stays unsaved', async () => {
    const saved = fakeStack([])
    const clean = fakeEditor(['/home/user/solution.py'])
    const grading = await ready(new LabGrading(saved.submissions, clean.editor, () => true))
    await grading.requestSubmit()
    const answering = grading.answerUnsaved('save-all')
    expect(grading.getSnapshot().submit).toEqual({ kind: 'saving' })
    await answering
    const [saving] = clean.saveAll.mock.invocationCallOrder
    const [submitting] = vi.mocked(saved.submissions.submit).mock.invocationCallOrder
    expect(saving).toBeLessThan(submitting ?? 0)
    expect(grading.getSnapshot().submit.kind).toBe('done')

    const stuck = fakeStack([])
    const conflict = fakeEditor(['/home/user/a.py', '/home/user/b.py'], ['/home/user/b.py'])
    const other = await ready(new LabGrading(stuck.submissions, conflict.editor, () => true))
    await other.requestSubmit()
    await other.answerUnsaved('save-all')
    expect(other.getSnapshot().submit).toEqual({
      kind: 'error',
      message: '/home/user/b.py could not be saved, so nothing was submitted',
    })
    expect(stuck.submissions.submit).not.toHaveBeenCalled()
    expect(other.canSubmit).toBe(true)
  })

  it("shows the stack's words when a submission fails, and lets the student try again", async () => {
    const { submissions } = fakeStack([])
    vi.mocked(submissions.submit).mockRejectedValueOnce(
      new SandboxError('denied', 'a share link cannot submit: only the student can'),
    )
    const grading = await ready(new LabGrading(submissions, fakeEditor([]).editor, () => true))
    await grading.requestSubmit()
    expect(grading.getSnapshot().submit).toEqual({
      kind: 'error',
      message: 'a share link cannot submit: only the student can',
    })
    expect(grading.canSubmit).toBe(true)
    await grading.requestSubmit()
    expect(grading.getSnapshot().submit.kind).toBe('done')
  })

  it('says when the submissions cannot be read', async () => {
    const { submissions } = fakeStack([])
    vi.mocked(submissions.list).mockRejectedValueOnce(
      new SandboxError('unavailable', 'the stack is not reachable'),
    )
    const grading = await ready(new LabGrading(submissions, fakeEditor([]).editor, () => true))
    expect(grading.getSnapshot().history).toEqual({ kind: 'error', message: 'the stack is not reachable' })
    expect(grading.canSubmit).toBe(true)
  })

  it('drops a list that was asked for before a submission and answers after it', async () => {
    const { submissions } = fakeStack([])
    const slow = deferred<SubmissionView[] | undefined>()
    vi.mocked(submissions.list).mockReturnValueOnce(slow.promise)
    const grading = new LabGrading(submissions, fakeEditor([]).editor, () => true)
    await grading.requestSubmit()
    // The list read again after the submission has it.
    slow.resolve([])
    await vi.waitFor(() => expect(submissions.list).toHaveBeenCalledTimes(2))
    await vi.waitFor(() => {
      const { history } = grading.getSnapshot()
      expect(history.kind === 'ready' && history.submissions.map((s) => s.id)).toEqual(['s1'])
    })
  })

  it('unfolds one earlier submission at a time', async () => {
    const grading = await ready(
      new LabGrading(
        fakeStack([submission(1, 1), submission(2, 4)]).submissions,
        fakeEditor([]).editor,
        () => true,
      ),
    )
    grading.toggle('s1')
    expect(grading.getSnapshot().expanded).toBe('s1')
    grading.toggle('s2')
    expect(grading.getSnapshot().expanded).toBe('s2')
    grading.toggle('s2')
    expect(grading.getSnapshot().expanded).toBeUndefined()
  })
})

describe('the deadline', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("is asked with the submissions, counted on the stack's clock, and asked again at each look", async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 2, 1, 12, 0) })
    let dueAt = '2026-03-01T17:00:00.000Z'
    // The stack's clock is 5 minutes ahead of the page's.
    const stack = fakeStack([], () => ({
      ...noDue(),
      dueAt,
      now: new Date(Date.now() + 5 * 60_000).toISOString(),
    }))
    const grading = new LabGrading(stack.submissions, fakeEditor([]).editor, () => true)
    await vi.advanceTimersByTimeAsync(0)
    expect(grading.getSnapshot().due?.dueAt).toBe(dueAt)
    expect(grading.getSnapshot().now).toBe(Date.UTC(2026, 2, 1, 12, 5))

    // The teacher gives an extension: the panel knows at its next look.
    dueAt = '2026-03-02T17:00:00.000Z'
    await vi.advanceTimersByTimeAsync(dueRefreshMs)
    expect(grading.getSnapshot().due?.dueAt).toBe(dueAt)
    expect(grading.getSnapshot().now).toBe(Date.UTC(2026, 2, 1, 12, 5) + dueRefreshMs)
    expect(stack.submissions.due).toHaveBeenCalledTimes(2)

    grading.dispose()
    await vi.advanceTimersByTimeAsync(10 * dueRefreshMs)
    expect(stack.submissions.due).toHaveBeenCalledTimes(2)
  })

  it('is not asked while the page is hidden, and is asked at once when it comes into view', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 2, 1, 12, 0) })
    const page = Object.assign(new EventTarget(), { visibilityState: 'hidden' as DocumentVisibilityState })
    vi.stubGlobal('document', page)
    try {
      const stack = fakeStack([])
      const grading = new LabGrading(stack.submissions, fakeEditor([]).editor, () => true)
      await vi.advanceTimersByTimeAsync(0)
      expect(stack.submissions.due).toHaveBeenCalledTimes(1)
      // Hidden: the time left still counts down, without a call.
      await vi.advanceTimersByTimeAsync(4 * dueRefreshMs)
      expect(stack.submissions.due).toHaveBeenCalledTimes(1)
      expect(grading.getSnapshot().now).toBeGreaterThanOrEqual(Date.UTC(2026, 2, 1, 12, 0) + 4 * dueRefreshMs)
      page.visibilityState = 'visible'
      page.dispatchEvent(new Event('visibilitychange'))
      await vi.advanceTimersByTimeAsync(0)
      expect(stack.submissions.due).toHaveBeenCalledTimes(2)
      grading.dispose()
      page.dispatchEvent(new Event('visibilitychange'))
      expect(stack.submissions.due).toHaveBeenCalledTimes(2)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('asks again when a Submit is refused, which may be a deadline the page did not know of', async () => {
    const stack = fakeStack([])
    stack.submissions.submit = vi.fn(async () => {
      throw new SandboxError('failed', 'the deadline has passed')
    })
    const grading = new LabGrading(stack.submissions, fakeEditor([]).editor, () => true)
    await vi.waitFor(() => expect(grading.getSnapshot().history.kind).toBe('ready'))
    await grading.requestSubmit()
    expect(grading.getSnapshot().submit).toEqual({ kind: 'error', message: 'the deadline has passed' })
    await vi.waitFor(() => expect(stack.submissions.due).toHaveBeenCalledTimes(2))
    grading.dispose()
  })
})
