import { useEffect, useRef } from 'react'
import { displayName } from '../../ui/displayName'
import type { EditorManager } from './EditorManager'
import type { EditorDocument } from './OpenDocument'

/** "Save changes before closing?" for a tab with unsaved changes; Escape cancels. */
export function ConfirmCloseDialog({
  doc,
  manager,
}: {
  doc: EditorDocument | undefined
  manager: EditorManager
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const el = dialog.current
    if (!el) return
    if (doc && !el.open) el.showModal()
    if (!doc && el.open) el.close()
  }, [doc])
  const name = doc ? displayName(doc.name) : ''
  return (
    <dialog
      ref={dialog}
      className="dialog"
      role="alertdialog"
      aria-labelledby="editor-close-title"
      aria-describedby="editor-close-text"
      onClose={() => void manager.answerClose('cancel')}
    >
      <h2 id="editor-close-title">Save changes to {name}?</h2>
      <p id="editor-close-text">Your changes are lost if you close without saving.</p>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={() => void manager.answerClose('save')}>
          Save
        </button>
        <button type="button" className="danger" onClick={() => void manager.answerClose('discard')}>
          Don't save
        </button>
        <button type="button" onClick={() => void manager.answerClose('cancel')}>
          Cancel
        </button>
      </div>
    </dialog>
  )
}
