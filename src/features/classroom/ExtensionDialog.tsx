import { useId, useState } from 'react'
import { useModalDialog } from '../../ui/useModalDialog'
import { fromLocalInput, toLocalInput } from './localTime'

/**
 * One student's own deadline: a new one (it stands instead of the class's, earlier or later), or
 * the class's back. Escape or Cancel changes nothing.
 */
export function ExtensionDialog({
  student,
  due,
  onAnswer,
}: {
  /** The student asked about; undefined when the dialog is closed. */
  student: string | undefined
  /** Their deadline now. */
  due: { at: string; extended: boolean } | undefined
  /** A new deadline (ISO), null for the class's again, undefined to change nothing. */
  onAnswer(until: string | null | undefined): void
}) {
  const { dialog } = useModalDialog(student !== undefined)
  const id = useId()
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      // Escape answers at once (cancel comes with the key): the close event after it is queued,
      // and a click that reopens the dialog before it ran would be undone by it.
      onCancel={() => onAnswer(undefined)}
    >
      {student !== undefined && <ExtensionForm id={id} student={student} due={due} onAnswer={onAnswer} />}
    </dialog>
  )
}

function ExtensionForm({
  id,
  student,
  due,
  onAnswer,
}: {
  id: string
  student: string
  due: { at: string; extended: boolean } | undefined
  onAnswer(until: string | null | undefined): void
}) {
  const [until, setUntil] = useState(toLocalInput(due?.at))
  const chosen = fromLocalInput(until)
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        if (chosen) onAnswer(chosen)
      }}
    >
      <h2 id={`${id}-title`}>An extension for {student}</h2>
      <label htmlFor={`${id}-until`}>Their deadline</label>{' '}
      <input
        id={`${id}-until`}
        type="datetime-local"
        required
        value={until}
        onChange={(event) => setUntil(event.target.value)}
      />
      <div className="dialog-actions">
        <button type="submit" className="primary" disabled={!chosen}>
          Give the extension
        </button>
        {due?.extended && (
          <button type="button" onClick={() => onAnswer(null)}>
            Back to the class’s deadline
          </button>
        )}
        <button type="button" onClick={() => onAnswer(undefined)}>
          Cancel
        </button>
      </div>
    </form>
  )
}
