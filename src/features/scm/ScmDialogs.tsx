import { type FormEvent, type ReactNode, useId, useState } from 'react'
import { useModalDialog } from '../../ui/useModalDialog'

/**
 * A question of the Source Control view: a modal dialog (role dialog) named by its title, whose Cancel has the
 * focus, so Enter or Escape never discards or commits anything by accident.
 */
export function QuestionDialog({
  open,
  title,
  confirm,
  danger = false,
  children,
  onAnswer,
}: {
  open: boolean
  title: string
  /** The button that goes ahead. */
  confirm: string
  /** Going ahead destroys something (Discard). */
  danger?: boolean
  children: ReactNode
  onAnswer(confirmed: boolean): void
}) {
  const { dialog, initialFocus } = useModalDialog(open)
  const id = useId()
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onClose={() => onAnswer(false)}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-text`}>{children}</p>
      <div className="dialog-actions">
        <button type="button" className={danger ? 'danger' : undefined} onClick={() => onAnswer(true)}>
          {confirm}
        </button>
        <button type="button" ref={initialFocus} onClick={() => onAnswer(false)}>
          Cancel
        </button>
      </div>
    </dialog>
  )
}

/** Asks once for the author of the sandbox's commits (git's user.name and user.email), after git asked for one. */
export function AuthorDialog({
  open,
  onAnswer,
}: {
  open: boolean
  /** The name and email, or undefined when cancelled. */
  onAnswer(author: { name: string; email: string } | undefined): void
}) {
  const { dialog } = useModalDialog(open)
  const id = useId()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (name.trim() && email.trim()) onAnswer({ name: name.trim(), email: email.trim() })
  }
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onClose={() => onAnswer(undefined)}
    >
      <form onSubmit={submit} className="scm-author">
        <h2 id={`${id}-title`}>Who is committing?</h2>
        <p id={`${id}-text`}>
          Git needs an author for commits. It is saved for this sandbox (git config --global) and not asked
          again.
        </p>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" required />
        </label>
        <label>
          Email
          <input
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="email"
            required
          />
        </label>
        <div className="dialog-actions">
          <button type="submit">Save and Commit</button>
          <button type="button" onClick={() => onAnswer(undefined)}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  )
}
