import { onPageShown } from '../../common/pageVisibility'
import type { EditorManager } from './EditorManager'

/**
 * Ties the editor to the page's life: leaving with unsaved changes asks first, and coming back to
 * the tab looks at the active file (it may have changed where the watch does not look).
 * Returns a function that unties it.
 */
export function guardUnsavedEdits(editor: EditorManager): () => void {
  const beforeUnload = (event: BeforeUnloadEvent) => {
    if (!editor.hasUnsaved()) return
    // The browser shows its own "leave site?" question; the text is not used any more.
    event.preventDefault()
    event.returnValue = ''
  }
  window.addEventListener('beforeunload', beforeUnload)
  const stopShown = onPageShown(() => editor.checkActive())
  return () => {
    window.removeEventListener('beforeunload', beforeUnload)
    stopShown()
  }
}
