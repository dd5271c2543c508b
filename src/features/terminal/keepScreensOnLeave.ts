import type { TerminalManager } from './TerminalManager'

/**
 * Keeps every terminal's screen when the page goes (a reload, a closed tab), for the runtimes
 * that cannot replay output. `pagehide`, not `unload`: it also fires when the page enters the
 * back/forward cache. Returns a function that stops.
 */
export function keepScreensOnLeave(terminals: TerminalManager): () => void {
  const keep = () => terminals.keepScreens()
  window.addEventListener('pagehide', keep)
  return () => window.removeEventListener('pagehide', keep)
}
