import { onPageShown, pageVisible } from '../../common/pageVisibility'
import { Subscribers } from '../../common/Subscribers'
import type { DueView } from '../../contract/deadlines'
import type { SubmissionView } from '../../contract/submissions'
import type { LabSubmissions } from '../../sandbox/labSubmissions'

/** What the editor holds that is not on disk yet, and File: Save All. */
export interface UnsavedFiles {
  /** Paths of open files with unsaved changes. */
  unsavedPaths(): string[]
  /** Saves them all; a file that cannot be saved stays unsaved (the editor says why). */
  saveAll(): Promise<void>
}

export type SubmitState =
  | { kind: 'idle' }
  /** Files are unsaved: the panel asks whether to save them first. */
  | { kind: 'asking'; unsaved: string[] }
  | { kind: 'saving' }
  | { kind: 'grading' }
  | { kind: 'done'; submission: SubmissionView }
  | { kind: 'error'; message: string }

export type HistoryState =
  | { kind: 'loading' }
  /** Newest first. */
  | { kind: 'ready'; submissions: SubmissionView[] }
  | { kind: 'error'; message: string }
  /** The stack does not grade this sandbox's lab (its template has no `grade`). */
  | { kind: 'not-graded' }

/** What the grading part of the lab panel renders: replaced, never mutated, on every change. */
export interface GradingSnapshot {
  submit: SubmitState
  history: HistoryState
  /** The one earlier submission shown in full in the history, if any. */
  expanded: string | undefined
  /** The student's deadline as the stack last said it; undefined until it has. */
  due: DueView | undefined
  /** The stack's time now, as this page reckons it (its own clock and the stack's skew), refreshed at each look. */
  now: number
}

/**
 * How often a page in view asks for the deadline again (the teacher may move it or give an
 * extension) and counts the time left down: a change shows within this, at a cost of one small
 * call per student. A hidden page only counts down, and asks at once when it comes into view.
 */
export const dueRefreshMs = 15_000

/** The user's answer to "some files are not saved". */
export type UnsavedAnswer = 'save-all' | 'on-disk' | 'cancel'

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))
const newestFirst = (list: readonly SubmissionView[]) => [...list].reverse()

/**
 * A graded lab's Submit, feedback and history: submits the lab's files as they are on disk (after
 * asking about unsaved editors), and keeps the student's submissions with their grades, newest
 * first. The stack grades; this only asks it and remembers what it answered.
 */
export class LabGrading {
  private snapshot: GradingSnapshot = {
    submit: { kind: 'idle' },
    history: { kind: 'loading' },
    expanded: undefined,
    due: undefined,
    now: Date.now(),
  }
  /** The stack's clock less this page's, from the last answer about the deadline. */
  private skewMs = 0
  private readonly dueTimer: ReturnType<typeof setInterval>
  private readonly stopHearingVisibility: () => void
  private readonly subscribers = new Subscribers()
  /** Bumped by every load and submit, so an answer that came after a newer one is dropped. */
  private generation = 0
  private disposed = false

  constructor(
    private readonly submissions: LabSubmissions,
    private readonly unsaved: UnsavedFiles,
    private readonly isRunning: () => boolean,
  ) {
    void this.refresh()
    this.dueTimer = setInterval(() => {
      if (pageVisible()) void this.refreshDue()
      else this.update({ now: Date.now() + this.skewMs })
    }, dueRefreshMs)
    // Asked as soon as the page comes into view again.
    this.stopHearingVisibility = onPageShown(() => void this.refreshDue())
  }

  subscribe = this.subscribers.add

  getSnapshot = (): GradingSnapshot => this.snapshot

  /** Submit can be asked for now. */
  get canSubmit(): boolean {
    const { submit, history } = this.snapshot
    const busy = submit.kind === 'asking' || submit.kind === 'saving' || submit.kind === 'grading'
    return !busy && history.kind !== 'not-graded' && this.isRunning()
  }

  /** Reads the deadline again, and counts the time left from now. */
  async refreshDue(): Promise<void> {
    try {
      const due = await this.submissions.due()
      this.skewMs = Date.parse(due.now) - Date.now()
      this.update({ due, now: Date.now() + this.skewMs })
    } catch {
      // Not reachable now (paused, reconnecting): the time left still counts down from what was said.
      this.update({ now: Date.now() + this.skewMs })
    }
  }

  /** Reads the submissions and the deadline again. */
  async refresh(): Promise<void> {
    void this.refreshDue()
    const generation = ++this.generation
    if (this.snapshot.history.kind !== 'ready') this.update({ history: { kind: 'loading' } })
    try {
      const list = await this.submissions.list()
      if (generation !== this.generation) return
      this.update({
        history: list ? { kind: 'ready', submissions: newestFirst(list) } : { kind: 'not-graded' },
      })
    } catch (err) {
      if (generation === this.generation) this.update({ history: { kind: 'error', message: messageOf(err) } })
    }
  }

  /** Submit: at once when every editor is saved, otherwise after asking (the panel's dialog). */
  requestSubmit(): Promise<void> {
    if (!this.canSubmit) return Promise.resolve()
    const unsaved = this.unsaved.unsavedPaths()
    if (unsaved.length > 0) {
      this.update({ submit: { kind: 'asking', unsaved } })
      return Promise.resolve()
    }
    return this.submit()
  }

  /** The answer to "some files are not saved": save them and submit, submit the disk's files, or nothing. */
  async answerUnsaved(answer: UnsavedAnswer): Promise<void> {
    if (this.snapshot.submit.kind !== 'asking') return
    if (answer === 'cancel') return this.update({ submit: { kind: 'idle' } })
    if (answer === 'save-all') {
      this.update({ submit: { kind: 'saving' } })
      try {
        await this.unsaved.saveAll()
      } catch (err) {
        return this.update({ submit: { kind: 'error', message: `saving failed: ${messageOf(err)}` } })
      }
      const left = this.unsaved.unsavedPaths()
      if (left.length > 0) {
        const message = `${left.join(', ')} could not be saved, so nothing was submitted`
        return this.update({ submit: { kind: 'error', message } })
      }
    }
    await this.submit()
  }

  /** Shows one earlier submission in full, or folds it again; one at a time. */
  toggle(id: string): void {
    this.update({ expanded: this.snapshot.expanded === id ? undefined : id })
  }

  dispose(): void {
    clearInterval(this.dueTimer)
    this.stopHearingVisibility()
    this.disposed = true
    this.subscribers.clear()
  }

  private async submit(): Promise<void> {
    this.update({ submit: { kind: 'grading' } })
    try {
      const submission = await this.submissions.submit()
      const { history } = this.snapshot
      const known = history.kind === 'ready' ? history.submissions.filter((s) => s.id !== submission.id) : []
      // A list still on its way was asked for before this submission: read it again instead.
      const stale = history.kind !== 'ready'
      ++this.generation
      this.update({
        submit: { kind: 'done', submission },
        history: { kind: 'ready', submissions: [submission, ...known] },
      })
      if (stale) void this.refresh()
    } catch (err) {
      this.update({ submit: { kind: 'error', message: messageOf(err) } })
      // A refusal may be a deadline the page did not know of yet.
      void this.refreshDue()
    }
  }

  private update(patch: Partial<GradingSnapshot>): void {
    if (this.disposed) return
    this.snapshot = { ...this.snapshot, ...patch }
    this.subscribers.notify()
  }
}
