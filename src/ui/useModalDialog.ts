import { type RefObject, useEffect, useRef } from 'react'

/**
 * A `<dialog>` shown modally while `open` and closed otherwise. Once shown, the element in
 * `initialFocus` (the safe answer of a destructive question) takes the focus rather than the
 * dialog's first button.
 */
export function useModalDialog(open: boolean): {
  dialog: RefObject<HTMLDialogElement | null>
  initialFocus: RefObject<HTMLButtonElement | null>
} {
  const dialog = useRef<HTMLDialogElement>(null)
  const initialFocus = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    const el = dialog.current
    if (!el) return
    if (open && !el.open) {
      el.showModal()
      initialFocus.current?.focus()
    }
    if (!open && el.open) el.close()
  }, [open])
  return { dialog, initialFocus }
}
