import { useEffect } from 'react'

import type { KeyCombination } from '../workbench/viewKeys'

/** A key combination and what it does; `ctrl` means Cmd on macOS, `alt` Option. */
export interface Shortcut extends KeyCombination {
  run(): void
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/**
 * Workbench shortcuts, caught before the terminal or editor sees the key. Only combinations no
 * shell needs (Ctrl+Shift+…, Ctrl+`) are taken, so terminal programs keep Ctrl+B, Ctrl+W and friends;
 * the one Ctrl+Alt (Save All, as VS Code on a Mac) is Emacs's regexp search, a price VS Code pays too.
 */
export function useGlobalShortcuts(shortcuts: Shortcut[]): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const ctrl = isMac ? event.metaKey : event.ctrlKey
      const key = event.key.toLowerCase()
      for (const s of shortcuts) {
        // Option changes the key a Mac reports (Cmd+Option+S is "ß"), so there the physical key
        // counts. Elsewhere the key itself does: Ctrl+Alt is AltGr on Windows, and AltGr+S types
        // a letter (ś in Polish) that must reach the editor or the terminal.
        const letter = isMac && s.alt && /^[a-z]$/i.test(s.key) && event.code === `Key${s.key.toUpperCase()}`
        if (
          (key === s.key.toLowerCase() || letter) &&
          !!s.ctrl === ctrl &&
          !!s.shift === event.shiftKey &&
          !!s.alt === event.altKey &&
          (!s.when || s.when())
        ) {
          event.preventDefault()
          event.stopPropagation()
          s.run()
          return
        }
      }
    }
    window.addEventListener('keydown', onKey, { capture: true })
    return () => window.removeEventListener('keydown', onKey, { capture: true })
  }, [shortcuts])
}
