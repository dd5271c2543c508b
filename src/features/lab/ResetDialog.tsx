import { useModalDialog } from '../../ui/useModalDialog'

/** "Reset the lab?": Cancel has the focus, Escape cancels. */
export function ResetDialog({
  open,
  paths,
  onAnswer,
}: {
  open: boolean
  /** What comes back; undefined for every starting file. */
  paths: string[] | undefined
  onAnswer(confirmed: boolean): void
}) {
  const { dialog, initialFocus } = useModalDialog(open)
  const what = paths ? paths.join(', ') : 'every file the lab started with'
  return (
    <dialog
      ref={dialog}
      className="dialog"
      role="alertdialog"
      aria-labelledby="lab-reset-title"
      aria-describedby="lab-reset-text"
      onClose={() => onAnswer(false)}
    >
      <h2 id="lab-reset-title">Reset the lab?</h2>
      <p id="lab-reset-text">
        The starting version of {what} comes back, and your changes to them are lost. Files you added are
        kept.
      </p>
      <div className="dialog-actions">
        <button type="button" className="danger" onClick={() => onAnswer(true)}>
          Reset
        </button>
        <button type="button" ref={initialFocus} onClick={() => onAnswer(false)}>
          Cancel
        </button>
      </div>
    </dialog>
  )
}
