import { useNotices } from '../../ui/notifications'

/** The Keyboard Lock API (Chromium only, so not in the DOM types). */
interface KeyboardLock {
  lock(keyCodes?: string[]): Promise<void>
  unlock(): void
}

/** Ctrl+W, Ctrl+N, Ctrl+T: readline's word rubout, next line and transpose, and the browser's close/new tab. */
const shellKeys = ['KeyW', 'KeyN', 'KeyT']

let holders = 0
let warned = false

function keyboard(): KeyboardLock | undefined {
  return (navigator as Navigator & { keyboard?: KeyboardLock }).keyboard
}

function follow(): void {
  const lockable = keyboard()
  if (!lockable) return
  if (!document.fullscreenElement) {
    lockable.unlock()
    return
  }
  lockable.lock(shellKeys).catch((err: unknown) => {
    if (warned) return
    warned = true
    const why = err instanceof Error ? err.message : String(err)
    useNotices.getState().push('info', `Ctrl+W, Ctrl+N and Ctrl+T stay with the browser: ${why}`)
  })
}

/**
 * Browsers keep Ctrl+W, Ctrl+N and Ctrl+T for themselves and never show them to a page, except
 * a page in fullscreen (entered with requestFullscreen, not F11) that locks them with the Keyboard
 * Lock API (Chromium). While held, the page locks them whenever it is fullscreen, so they reach
 * the shell; elsewhere the browser keeps them. Returns the release.
 */
export function holdShellKeysInFullscreen(): () => void {
  if (holders++ === 0) {
    document.addEventListener('fullscreenchange', follow)
    follow()
  }
  let released = false
  return () => {
    if (released) return
    released = true
    if (--holders > 0) return
    document.removeEventListener('fullscreenchange', follow)
    keyboard()?.unlock()
  }
}
