import type { ReactNode } from 'react'
import { useModalDialog } from './useModalDialog'

/**
 * A destructive question ("Reset the lab?", "End the class?"): an alert dialog whose Cancel has
 * the focus, so Enter or Escape never destroys anything by accident.
 */
export function ConfirmDialog({
  open,
  id,
  title,
  confirm,
  children,
  onAnswer,
}: {
  open: boolean
  /** Prefix of the title's and text's element ids, unique on the page. */
  id: string
  title: string
  /** The destructive button's label. */
  confirm: string
  /** What will happen, in words. */
  children: ReactNode
  onAnswer(confirmed: boolean): void
}) {
  const { dialog, initialFocus } = useModalDialog(open)
  return (
    <dialog
      ref={dialog}
      className="dialog"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onClose={(event) => {
        // React passes a dialog's close up its tree: a question asked inside another dialog
        // (a submission's view) would close that one too.
        event.stopPropagation()
        onAnswer(false)
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-text`}>{children}</p>
      <div className="dialog-actions">
        <button type="button" className="danger" onClick={() => onAnswer(true)}>
          {confirm}
        </button>
        <button type="button" ref={initialFocus} onClick={() => onAnswer(false)}>
          Cancel
        </button>
      </div>
    </dialog>
  )
}
