import { useEffect } from 'react'
import { useExternalStore } from '../ui/useExternalStore'
import { useModalDialog } from '../ui/useModalDialog'
import type { ConsentQueue } from './consent'

/** "Run this command?" for a command from the embedding page; Escape or closing says no. */
export function ConsentDialog({ queue }: { queue: ConsentQueue }) {
  const request = useExternalStore(queue)
  const { dialog, initialFocus: decline } = useModalDialog(!!request)
  // Each new request, not only the first, starts on the safe answer: Enter alone never runs one.
  useEffect(() => {
    if (request) decline.current?.focus()
  }, [request, decline])
  return (
    <dialog
      ref={dialog}
      className="dialog"
      role="alertdialog"
      aria-labelledby="consent-title"
      aria-describedby="consent-text"
      onCancel={(e) => {
        e.preventDefault()
        queue.answer(false)
      }}
    >
      <h2 id="consent-title">Run this command?</h2>
      <p id="consent-text">
        {request?.requester} asks to run a command in this sandbox. Run it only if you trust it.
      </p>
      <pre className="consent-command">{request?.command}</pre>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={() => queue.answer(true)}>
          Run
        </button>
        <button type="button" ref={decline} onClick={() => queue.answer(false)}>
          Don't run
        </button>
      </div>
    </dialog>
  )
}
