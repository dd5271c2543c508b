import { useId } from 'react'
import type { SubmissionGrade, SubmissionTest, SubmissionView } from '../../contract/submissions'
import { useExternalStore } from '../../ui/useExternalStore'
import { useModalDialog } from '../../ui/useModalDialog'
import { dueText } from './dueText'
import type { GradingSnapshot, LabGrading, SubmitState } from './LabGrading'

/** Submit, beside Check: disabled while a submission is asked about, saved or graded. */
export function SubmitButton({ grading }: { grading: LabGrading }) {
  const snap = useExternalStore(grading)
  if (snap.history.kind === 'not-graded') return null
  return (
    <button type="button" disabled={!grading.canSubmit} onClick={() => void grading.requestSubmit()}>
      Submit
    </button>
  )
}

/**
 * What came of submitting: progress while the stack grades, the newest grade with each test,
 * and every submission, newest first, one of them unfolded at a time.
 */
export function GradingSection({ grading, home }: { grading: LabGrading; home: string | undefined }) {
  const snap = useExternalStore(grading)
  const historyId = useId()
  const { history, submit } = snap
  if (history.kind === 'not-graded') return null
  const latest = history.kind === 'ready' ? history.submissions[0] : undefined
  return (
    <div className="lab-grading">
      <DueLine snap={snap} />
      <p className="lab-note" role="status" aria-label="Submission status">
        {submitStatus(submit)}
      </p>
      {submit.kind === 'error' && <p role="alert">Submit failed: {submit.message}</p>}
      {latest && (
        <section className="lab-feedback" aria-label="Latest grade">
          <Feedback submission={latest} />
        </section>
      )}
      <section className="lab-history" aria-labelledby={historyId}>
        <h3 id={historyId}>Submissions</h3>
        {history.kind === 'loading' && <p className="lab-note">Loading your submissions…</p>}
        {history.kind === 'error' && (
          <p role="alert">Your submissions could not be read: {history.message}</p>
        )}
        {history.kind === 'ready' && history.submissions.length === 0 && (
          <p className="lab-note">Nothing submitted yet.</p>
        )}
        {history.kind === 'ready' && history.submissions.length > 0 && (
          <ol className="lab-history-list" aria-labelledby={historyId}>
            {history.submissions.map((s) => (
              <HistoryEntry
                key={s.id}
                submission={s}
                expanded={snap.expanded === s.id}
                onToggle={() => grading.toggle(s.id)}
              />
            ))}
          </ol>
        )}
      </section>
      <UnsavedDialog
        unsaved={submit.kind === 'asking' ? submit.unsaved.map((path) => relativeTo(home, path)) : undefined}
        onAnswer={(answer) => void grading.answerUnsaved(answer)}
      />
    </div>
  )
}

/**
 * The time left, or what follows the deadline, in words; counted down each minute. A timer's
 * role: read when asked for, not announced at every minute as a status would be.
 */
function DueLine({ snap }: { snap: GradingSnapshot }) {
  const line = snap.due && dueText(snap.due, snap.now)
  if (!line || !snap.due?.dueAt) return null
  return (
    <p className="lab-due" role="timer" aria-label="Time left" data-standing={line.standing}>
      <time dateTime={snap.due.dueAt} title={new Date(snap.due.dueAt).toLocaleString()}>
        {line.text}
      </time>
    </p>
  )
}

/** "late by 2 days: counts 3.2 / 4", or nothing for one on time. */
function lateText(submission: SubmissionView): string | undefined {
  const { daysLate, countedScore, grade } = submission
  if (!daysLate) return undefined
  const by = `late by ${daysLate} ${daysLate === 1 ? 'day' : 'days'}`
  if (countedScore === undefined) return `${by}: late work does not count in this class`
  return grade ? `${by}: counts ${countedScore} / ${grade.maxScore}` : by
}

function submitStatus(submit: SubmitState): string {
  switch (submit.kind) {
    case 'saving':
      return 'Saving your files…'
    case 'grading':
      return 'Submitted: grading it, this takes a few seconds…'
    case 'done': {
      const late = lateText(submit.submission)
      return `Graded: ${scoreText(submit.submission.grade)}${late ? `, ${late}` : ''}.`
    }
    default:
      return ''
  }
}

const scoreText = (grade: SubmissionGrade | undefined) =>
  grade ? `${grade.score} / ${grade.maxScore}` : 'not graded'

/** "7 / 9", why it earned nothing when the grader says, and each test as the lab lets its student see it. */
function Feedback({ submission }: { submission: SubmissionView }) {
  const { grade } = submission
  if (!grade) return <p>This submission has not been graded.</p>
  const full = grade.maxScore > 0 && grade.score === grade.maxScore
  return (
    <>
      <p className="lab-grade" data-outcome={full ? 'passed' : 'failed'}>
        Grade: <strong>{scoreText(grade)}</strong>
      </p>
      {submission.daysLate ? <p className="lab-grade-late">Late: {lateText(submission)}.</p> : null}
      {grade.problem && <p className="lab-grade-problem">Problem: {grade.problem}</p>}
      {grade.tests === undefined ? (
        <p className="lab-note">This lab shows the score only.</p>
      ) : (
        grade.tests.length > 0 && (
          <ul className="lab-tests" aria-label="Tests">
            {grade.tests.map((test, i) => (
              // Two tests of two classes may share a name.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed once graded
              <TestRow key={i} test={test} />
            ))}
          </ul>
        )
      )}
    </>
  )
}

const outcomeWords: Record<SubmissionTest['outcome'], { mark: string; word: string }> = {
  passed: { mark: '✓', word: 'Passed' },
  failed: { mark: '✗', word: 'Failed' },
  skipped: { mark: '–', word: 'Skipped' },
}

/** One test: its outcome in words and a mark (never colour alone), its points and its message. */
function TestRow({ test }: { test: SubmissionTest }) {
  const { mark, word } = outcomeWords[test.outcome]
  return (
    <li className="lab-test" data-outcome={test.outcome}>
      <span className="lab-test-mark" aria-hidden="true">
        {mark}
      </span>{' '}
      <span className="lab-test-outcome">{word}:</span> <span className="lab-test-name">{test.name}</span>{' '}
      <span className="lab-test-points">
        ({test.earned} / {test.points} {test.points === 1 ? 'point' : 'points'})
      </span>
      {test.message && <pre className="lab-test-message">{test.message}</pre>}
    </li>
  )
}

function HistoryEntry({
  submission,
  expanded,
  onToggle,
}: {
  submission: SubmissionView
  expanded: boolean
  onToggle(): void
}) {
  const detailsId = useId()
  const when = new Date(submission.submittedAt)
  return (
    <li className="lab-history-entry">
      <button
        type="button"
        className="lab-history-toggle"
        aria-expanded={expanded}
        aria-controls={detailsId}
        onClick={onToggle}
      >
        <time dateTime={submission.submittedAt}>
          {when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })}
        </time>
        : {scoreText(submission.grade)}
        {submission.daysLate ? ` (${lateText(submission)})` : ''}
      </button>
      <div id={detailsId} className="lab-history-details" hidden={!expanded}>
        {expanded && <Feedback submission={submission} />}
      </div>
    </li>
  )
}

/**
 * "Some files are not saved": Submit takes the files on disk, so the student chooses to save them
 * first, to submit the disk's version, or not to submit. Escape cancels.
 */
function UnsavedDialog({
  unsaved,
  onAnswer,
}: {
  /** The unsaved files; undefined when nothing is asked. */
  unsaved: string[] | undefined
  onAnswer(answer: 'save-all' | 'on-disk' | 'cancel'): void
}) {
  const { dialog } = useModalDialog(!!unsaved)
  const id = useId()
  return (
    <dialog
      ref={dialog}
      className="dialog"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onClose={() => onAnswer('cancel')}
    >
      <h2 id={`${id}-title`}>Submit unsaved changes?</h2>
      <p id={`${id}-text`}>
        {unsaved?.join(', ')} {unsaved?.length === 1 ? 'has' : 'have'} changes that are not saved. Submit
        takes your files as they are on disk.
      </p>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={() => onAnswer('save-all')}>
          Save all and submit
        </button>
        <button type="button" onClick={() => onAnswer('on-disk')}>
          Submit what is on disk
        </button>
        <button type="button" onClick={() => onAnswer('cancel')}>
          Cancel
        </button>
      </div>
    </dialog>
  )
}

/** A path as the student knows it: relative to their home folder. */
function relativeTo(home: string | undefined, path: string): string {
  return home && path.startsWith(`${home}/`) ? path.slice(home.length + 1) : path
}
