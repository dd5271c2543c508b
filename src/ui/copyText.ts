/** Why the clipboard can be out of reach, for the notices. */
export const blockedBecause =
  'the browser keeps the clipboard from this page (plain http on a non-local host, or an iframe without clipboard permission)'

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/** The copy command of old: it needs no permission, only a user gesture, and works over plain http. */
function legacyCopy(text: string): boolean {
  const onCopy = (event: ClipboardEvent) => {
    event.clipboardData?.setData('text/plain', text)
    event.preventDefault()
    event.stopImmediatePropagation()
  }
  document.addEventListener('copy', onCopy, { capture: true })
  try {
    return document.execCommand('copy')
  } finally {
    document.removeEventListener('copy', onCopy, { capture: true })
  }
}

/** Puts text on the clipboard: the Clipboard API where the page may use it, the copy command otherwise. */
export async function copyText(text: string): Promise<void> {
  let reason = 'the Clipboard API is not available'
  // `clipboard` is undefined outside secure contexts, whatever the DOM types say.
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text)
      return
    } catch (err) {
      reason = errorMessage(err)
    }
  }
  if (!legacyCopy(text)) {
    throw new Error(`${reason}; ${blockedBecause}. Use the browser's Edit menu › Copy instead`)
  }
}
