import { useEffect } from 'react'

/** A key combination and what it does; `ctrl` means Cmd on macOS. */
export interface Shortcut {
  key: string
  ctrl?: boolean
  shift?: boolean
  run(): void
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/**
 * Workbench shortcuts, caught before the terminal or editor sees the key. Only combinations no
 * shell needs (Ctrl+Shift+…, Ctrl+`) are taken, so terminal programs keep Ctrl+B, Ctrl+W and friends.
 */
export function useGlobalShortcuts(shortcuts: Shortcut[]): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const ctrl = isMac ? event.metaKey : event.ctrlKey
      for (const s of shortcuts) {
        if (
          event.key.toLowerCase() === s.key.toLowerCase() &&
          !!s.ctrl === ctrl &&
          !!s.shift === event.shiftKey
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
