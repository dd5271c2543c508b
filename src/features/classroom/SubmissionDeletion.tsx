import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { GradebookAttempt } from '../../contract/gradebook'
import { classGrades } from '../../sandbox/classGrades'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { classKey } from './classKey'
import { when } from './gradeText'
import type { ShownSubmission } from './shownSubmission'

type Deleting = { kind: 'one'; attempt: GradebookAttempt } | { kind: 'all' }

/**
 * The submission view's Delete buttons: this submission, or every one of the student's for the
 * lab, each asked first (Cancel has the focus; Escape cancels). The snapshot goes for good and the
 * gradebook counts without it; the view moves to another attempt, or closes when none is left.
 */
export function SubmissionDeletion({ className, place, row, attempt, onAttempt, onClose }: ShownSubmission) {
  const queryClient = useQueryClient()
  const [asking, setAsking] = useState<Deleting>()
  const remove = useMutation({
    mutationFn: async (what: Deleting) => {
      if (what.kind === 'one')
        await classGrades.deleteSubmission(
          place,
          className,
          what.attempt.sandboxId,
          what.attempt.submissionId,
        )
      else await classGrades.deleteSubmissions(place, className, row.student, row.lab)
    },
    onSuccess: async (_answer, what) => {
      const left =
        what.kind === 'one' ? row.submissions.filter((s) => s.submissionId !== what.attempt.submissionId) : []
      // Another attempt, or none: the view never shows what is gone.
      const next = left.find((s) => s.submissionId === row.counted?.submissionId) ?? left.at(-1)
      if (next) onAttempt(next)
      else onClose()
      await queryClient.invalidateQueries({ queryKey: ['grades', ...classKey(place, className)] })
    },
  })
  const many = row.submissions.length
  return (
    <>
      <div role="toolbar" aria-label="Delete" className="row-actions submission-delete">
        <button
          type="button"
          className="danger"
          disabled={remove.isPending}
          onClick={() => setAsking({ kind: 'one', attempt })}
        >
          Delete this submission…
        </button>
        {many > 1 && (
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => setAsking({ kind: 'all' })}
          >
            Delete all {many} of {row.student}'s submissions…
          </button>
        )}
      </div>
      {remove.isError && <p role="alert">Deleting failed: {remove.error.message}</p>}
      <ConfirmDialog
        open={asking !== undefined}
        id="submission-delete"
        title={
          asking?.kind === 'all'
            ? `Delete all ${many} of ${row.student}'s submissions of ${row.lab}?`
            : `Delete ${row.student}'s submission of ${when(attempt.submittedAt)}?`
        }
        confirm={asking?.kind === 'all' ? `Delete all ${many}` : 'Delete'}
        onAnswer={(yes) => {
          const what = asking
          setAsking(undefined)
          if (yes && what) remove.mutate(what)
        }}
      >
        {asking?.kind === 'all'
          ? 'Their files and grades are removed from the stack for good; the gradebook then shows no submission of this lab for them.'
          : 'Its files and grade are removed from the stack for good; the gradebook then counts the other attempts.'}
      </ConfirmDialog>
    </>
  )
}
