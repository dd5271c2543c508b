import { useId, useState } from 'react'
import type { ClassDeadline } from '../../contract/deadlines'
import { fromLocalInput, toLocalInput } from './localTime'
import type { ClassDeadlineBoard } from './useClassDeadline'

/**
 * The class's deadline and its rules, as the teacher changes them: when it is due, what late work
 * gets (refused, or taken less a percent per started day), which on-time grade counts, and exam
 * mode (not for a class on E2B: the stack cannot close its sandboxes, so the option is off and
 * says why). Extensions are per student, from their row.
 */
export function DeadlineSettings({ board }: { board: ClassDeadlineBoard }) {
  const { deadline } = board
  if (deadline.isPending) return <p className="panel-message">Loading the deadline…</p>
  if (deadline.isError) return <p role="alert">The deadline could not be read: {deadline.error.message}</p>
  // A fresh form for what the stack holds now (after a save, its answer).
  return <DeadlineForm key={JSON.stringify(deadline.data)} saved={deadline.data} board={board} />
}

function DeadlineForm({ saved, board }: { saved: ClassDeadline; board: ClassDeadlineBoard }) {
  const id = useId()
  const onE2b = board.place.remoteId !== undefined
  const [due, setDue] = useState(toLocalInput(saved.deadline))
  const [late, setLate] = useState(saved.late.kind)
  const [percent, setPercent] = useState(
    String(saved.late.kind === 'late' ? saved.late.penaltyPercentPerDay : 10),
  )
  const [counts, setCounts] = useState(saved.counts)
  const [examMode, setExamMode] = useState(saved.examMode && !onE2b)
  const penalty = Number(percent)
  const penaltyOk = percent.trim() !== '' && penalty >= 0 && penalty <= 100
  const dueOk = due === '' || fromLocalInput(due) !== undefined
  return (
    <form
      className="class-deadline"
      aria-label="Deadline"
      onSubmit={(event) => {
        event.preventDefault()
        if (!dueOk || (late === 'late' && !penaltyOk)) return
        board.save({
          deadline: fromLocalInput(due) ?? null,
          late: late === 'late' ? { kind: 'late', penaltyPercentPerDay: penalty } : { kind: 'refuse' },
          counts,
          examMode,
        })
      }}
    >
      <label htmlFor={`${id}-due`}>Deadline</label>
      <input
        id={`${id}-due`}
        type="datetime-local"
        value={due}
        aria-describedby={`${id}-due-help`}
        onChange={(event) => setDue(event.target.value)}
      />
      <span id={`${id}-due-help`} className="muted">
        {due ? 'in this browser’s time zone' : 'none: every submission is on time'}
      </span>
      <label htmlFor={`${id}-late`}>After it</label>
      <select id={`${id}-late`} value={late} onChange={(event) => setLate(event.target.value as typeof late)}>
        <option value="refuse">refuse submissions</option>
        <option value="late">take them late, less a penalty</option>
      </select>
      {late === 'late' && (
        <>
          <label htmlFor={`${id}-percent`}>Penalty per day started (%)</label>
          <input
            id={`${id}-percent`}
            type="number"
            min={0}
            max={100}
            step="any"
            value={percent}
            aria-invalid={!penaltyOk}
            onChange={(event) => setPercent(event.target.value)}
          />
        </>
      )}
      <label htmlFor={`${id}-counts`}>Grade that counts</label>
      <select
        id={`${id}-counts`}
        value={counts}
        onChange={(event) => setCounts(event.target.value as typeof counts)}
      >
        <option value="best">the best on-time submission</option>
        <option value="last">the last on-time submission</option>
      </select>
      <label className="class-deadline-check">
        <input
          type="checkbox"
          checked={examMode}
          disabled={onE2b}
          aria-describedby={onE2b ? `${id}-exam-help` : undefined}
          onChange={(event) => setExamMode(event.target.checked)}
        />{' '}
        Exam mode: pause each student’s sandbox at their deadline
      </label>
      {onE2b && (
        <span id={`${id}-exam-help`} className="muted">
          Not for a class on E2B: the stack cannot close its sandboxes at the deadline. Late Submits are still
          marked (or refused).
        </span>
      )}
      <button type="submit" disabled={board.busy || !dueOk || (late === 'late' && !penaltyOk)}>
        Save the deadline
      </button>
      <p role="status" className="class-summary">
        {board.summary ?? ''}
      </p>
    </form>
  )
}
