import type { ReactNode } from 'react'
import { useModalDialog } from '../../ui/useModalDialog'

/**
 * The modal dialog a teacher reads submissions in (one, or a similar pair): its heading beside
 * Close, which takes the focus so Enter or Escape leaves at once.
 */
export function SubmissionDialog({
  titleId,
  title,
  onClose,
  children,
}: {
  /** The heading's element id, unique on the page: it names the dialog. */
  titleId: string
  title: ReactNode
  onClose(): void
  children: ReactNode
}) {
  const { dialog, initialFocus } = useModalDialog(true)
  return (
    <dialog ref={dialog} className="dialog submission-view" aria-labelledby={titleId} onClose={onClose}>
      <div className="submission-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" ref={initialFocus} onClick={onClose}>
          Close
        </button>
      </div>
      {children}
    </dialog>
  )
}
