import './gradebook.css'
import { useState } from 'react'
import type { GradebookAttempt, GradebookRow } from '../../contract/gradebook'
import type { ClassPlace } from '../../sandbox/localStack'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { countedText, lateCell, when } from './gradeText'
import { SimilarSection } from './SimilarSection'
import { SubmissionView } from './SubmissionView'
import { useGradebook } from './useGradebook'

const byName = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true })
const rowKey = (row: GradebookRow) => JSON.stringify([row.student, row.lab])

/**
 * The class's gradebook (loaded with the tab that shows it): each student's counted score per
 * lab, attempts and last submission, sortable by student; a row opens that submission (files,
 * diff against the starting files, the grader's output). Regrade all asks first; Download CSV
 * saves the gradebook as the stack writes it.
 */
export function Gradebook({ name, place, active }: { name: string; place: ClassPlace; active: boolean }) {
  const book = useGradebook(place, name, active)
  const [order, setOrder] = useState<'ascending' | 'descending'>('ascending')
  const [confirming, setConfirming] = useState(false)
  // The row by its key, so a refresh (after a regrade) shows its new grades.
  const [shown, setShown] = useState<{ key: string; attempt: GradebookAttempt }>()
  const { grades } = book

  if (grades.isPending) return <p className="panel-message">Loading the gradebook…</p>
  if (grades.isError) return <p role="alert">{grades.error.message}</p>
  const { rows, policy, late } = grades.data
  const sign = order === 'ascending' ? 1 : -1
  const sorted = [...rows].sort((a, b) => sign * byName(a.student, b.student) || byName(a.lab, b.lab))
  const submitted = rows.reduce((n, r) => n + r.attempts, 0)
  const open = (row: GradebookRow) => {
    const attempt = row.counted ?? row.submissions.at(-1)
    if (attempt) setShown({ key: rowKey(row), attempt })
  }
  const shownRow = shown && rows.find((r) => rowKey(r) === shown.key)
  return (
    <>
      <div role="toolbar" aria-label="Grades" className="row-actions">
        <button
          type="button"
          disabled={book.regrading || submitted === 0}
          onClick={() => setConfirming(true)}
        >
          Regrade all…
        </button>
        <button type="button" onClick={book.downloadCsv}>
          Download CSV
        </button>
      </div>
      <p role="status" className="class-summary">
        {book.summary ?? ''}
      </p>
      {rows.length === 0 ? (
        <p>
          No graded lab in this class yet: a lab is graded when its manifest has <code>grade</code>.
        </p>
      ) : (
        <table className="sandbox-table gradebook-table">
          <caption>
            Grades of {name}: the {policy === 'best' ? 'best' : 'last'} on-time submission of each student
            counts
            {late.kind === 'late'
              ? `; a late one only without it, less ${late.penaltyPercentPerDay}% a day`
              : ''}
            . Choose a row to see that submission.
          </caption>
          <thead>
            <tr>
              <th scope="col" aria-sort={order}>
                <button
                  type="button"
                  className="sort-button"
                  onClick={() => setOrder(order === 'ascending' ? 'descending' : 'ascending')}
                >
                  Student <span aria-hidden="true">{order === 'ascending' ? '▲' : '▼'}</span>
                </button>
              </th>
              <th scope="col">Lab</th>
              <th scope="col">Score</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last submitted</th>
              <th scope="col">Late</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((row) => (
              // The score's button is the keyboard's way in; a click anywhere on the row is the mouse's.
              <tr
                key={rowKey(row)}
                aria-label={`${row.student}, ${row.lab}`}
                className={row.attempts > 0 ? 'openable' : undefined}
                onClick={() => open(row)}
              >
                <th scope="row">{row.student}</th>
                <td>{row.lab}</td>
                <td>
                  {row.attempts === 0 ? (
                    <span className="muted">no submission</span>
                  ) : (
                    <button
                      type="button"
                      className="link-button"
                      aria-label={`${countedText(row.counted)}: show ${row.student}'s submission of ${row.lab}`}
                      onClick={(event) => {
                        event.stopPropagation()
                        open(row)
                      }}
                    >
                      {countedText(row.counted)}
                    </button>
                  )}
                  {row.counted?.problem && <span className="muted"> · {row.counted.problem}</span>}
                </td>
                <td>{row.attempts}</td>
                <td>{row.lastSubmittedAt ? when(row.lastSubmittedAt) : '—'}</td>
                <td>{row.attempts === 0 ? '—' : lateCell(row.counted)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows.some((r) => r.attempts > 0) && (
        <SimilarSection className={name} place={place} labs={grades.data.labs} />
      )}
      <ConfirmDialog
        open={confirming}
        id="class-regrade"
        title={`Regrade every submission of ${name}?`}
        confirm="Regrade all"
        onAnswer={(yes) => {
          setConfirming(false)
          if (yes) book.regradeAll()
        }}
      >
        Each of the {submitted} stored submissions is graded again against its lab as it is now, in a fresh
        grader sandbox; its new grade replaces the old. The submitted files do not change.
      </ConfirmDialog>
      {shown && shownRow && (
        <SubmissionView
          className={name}
          place={place}
          row={shownRow}
          attempt={
            shownRow.submissions.find((s) => s.submissionId === shown.attempt.submissionId) ?? shown.attempt
          }
          onAttempt={(attempt) => setShown({ key: shown.key, attempt })}
          onClose={() => setShown(undefined)}
        />
      )}
    </>
  )
}
