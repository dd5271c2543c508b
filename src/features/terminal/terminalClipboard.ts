import type { Terminal } from '@xterm/xterm'
import { blockedBecause, copyText, errorMessage } from '../../ui/copyText'
import { reportErrors, useNotices } from '../../ui/notifications'

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/** The letter of a key, by its meaning on Latin layouts and by its position on the others. */
function keyLetter(event: KeyboardEvent): string {
  return /^[a-z]$/i.test(event.key) ? event.key.toLowerCase() : event.code.replace(/^Key/, '').toLowerCase()
}

/**
 * The terminal's clipboard: Ctrl+Shift+C copies the selection, Ctrl+C copies it when there is one
 * (and is ^C otherwise), copy-on-select (an option), and one path for every paste, `term.paste`,
 * which brackets the text when the shell asked for bracketed paste. Ctrl+Shift+V is left to the
 * browser, whose paste event needs no clipboard permission; right-click pastes through the
 * Clipboard API, and where that is missing the browser's own menu (with Paste) stays.
 */
export class TerminalClipboard {
  /** A mouse selection may be under way in this terminal. */
  private selecting = false
  private warnedNoApi = false

  constructor(
    private readonly term: Terminal,
    private readonly element: HTMLElement,
    /** Whether a mouse selection is copied as soon as it is made (a user setting). */
    private readonly copyOnSelect: () => boolean,
  ) {
    // Right-click pastes here, so it must not also select the word under the mouse (macOS default).
    term.options.rightClickSelectsWord = false
    element.addEventListener('paste', this.onPaste, { capture: true })
    element.addEventListener('contextmenu', this.onContextMenu)
    element.addEventListener('mousedown', this.onMouseDown, { capture: true })
    window.addEventListener('mouseup', this.onMouseUp)
  }

  /** For xterm's custom key handler: false when the key was a clipboard key, handled here. */
  handleKey(event: KeyboardEvent): boolean {
    if (event.type !== 'keydown' || event.altKey || event.metaKey || !event.ctrlKey) return true
    const letter = keyLetter(event)
    if (event.shiftKey && letter === 'c') {
      event.preventDefault()
      this.copySelection()
      return false
    }
    // Not handled by xterm (it would be ^V), so the browser fires a paste event: see onPaste.
    if (event.shiftKey && letter === 'v') return false
    // On macOS Cmd+C copies and Ctrl+C is always the shell's.
    if (!isMac && !event.shiftKey && letter === 'c' && this.term.hasSelection()) {
      event.preventDefault()
      this.copySelection()
      this.term.clearSelection()
      return false
    }
    return true
  }

  /** Copies what is selected in the terminal, if anything. */
  copySelection(): void {
    const text = this.term.getSelection()
    if (text) void reportErrors('Copying failed', () => copyText(text))
  }

  dispose(): void {
    this.element.removeEventListener('paste', this.onPaste, { capture: true })
    this.element.removeEventListener('contextmenu', this.onContextMenu)
    this.element.removeEventListener('mousedown', this.onMouseDown, { capture: true })
    window.removeEventListener('mouseup', this.onMouseUp)
  }

  /** Every paste event (Ctrl+Shift+V, Cmd+V, the browser's menu) goes through term.paste. */
  private readonly onPaste = (event: ClipboardEvent) => {
    event.preventDefault()
    event.stopPropagation()
    const text = event.clipboardData?.getData('text/plain')
    if (text) this.term.paste(text)
  }

  private readonly onContextMenu = (event: MouseEvent) => {
    // Shift+right-click keeps the browser's own menu.
    if (event.shiftKey) return
    if (!navigator.clipboard?.readText) {
      if (!this.warnedNoApi) {
        this.warnedNoApi = true
        useNotices
          .getState()
          .push(
            'info',
            `Right-click cannot paste here: ${blockedBecause}. Use Paste in the browser's menu, or Ctrl+Shift+V.`,
          )
      }
      return
    }
    event.preventDefault()
    void reportErrors('Pasting failed', async () => {
      let text: string
      try {
        text = await navigator.clipboard.readText()
      } catch (err) {
        throw new Error(
          `${errorMessage(err)}; allow clipboard access for this site, or paste with Ctrl+Shift+V (Shift+right-click opens the browser's menu)`,
        )
      }
      this.term.paste(text)
    })
  }

  private readonly onMouseDown = (event: MouseEvent) => {
    if (event.button === 0) this.selecting = true
  }

  /** Copy-on-select copies when a mouse selection ends, not for selections made by search. */
  private readonly onMouseUp = () => {
    // Runs on window, after xterm's own mouseup on the document has settled the selection.
    if (!this.selecting) return
    this.selecting = false
    if (this.copyOnSelect()) this.copySelection()
  }
}
