import { Subscribers } from '../../common/Subscribers'

// What the touch key bar sends: the keys a phone's on-screen keyboard does not have, as a
// terminal's keyboard would send them (VT220 and xterm conventions).

export type TouchKey = 'Escape' | 'Tab' | 'ArrowUp' | 'ArrowDown' | 'ArrowRight' | 'ArrowLeft'

const arrowFinals: Partial<Record<TouchKey, string>> = {
  ArrowUp: 'A',
  ArrowDown: 'B',
  ArrowRight: 'C',
  ArrowLeft: 'D',
}

/**
 * The bytes a key sends. Arrows follow the cursor-key mode the program asked for (DECCKM:
 * `ESC O A` in application mode, as vim and less ask, `ESC [ A` otherwise); with Ctrl they
 * carry xterm's modifier (`ESC [ 1 ; 5 D`, a word left in readline).
 */
export function touchKeySequence(key: TouchKey, { applicationCursor = false, ctrl = false } = {}): string {
  const final = arrowFinals[key]
  if (final) {
    if (ctrl) return `\x1b[1;5${final}`
    return applicationCursor ? `\x1bO${final}` : `\x1b[${final}`
  }
  return key === 'Escape' ? '\x1b' : '\t'
}

/**
 * Typed text with Ctrl held, for the key bar's Ctrl followed by a key of the on-screen keyboard:
 * a letter or one of `@[\]^_?` and space become their control code (Ctrl+C is 0x03); anything
 * else (a word the keyboard inserted at once, an emoji) is sent as it is.
 */
export function withCtrl(data: string): string {
  if (data.length !== 1) return data
  const code = data.toUpperCase().charCodeAt(0)
  if (data === ' ' || data === '@') return '\x00'
  if (data === '?') return '\x7f'
  if ((code >= 0x41 && code <= 0x5a) || (code >= 0x5b && code <= 0x5f))
    return String.fromCharCode(code - 0x40)
  return data
}

/**
 * The key bar's Ctrl: on until the next key typed in any of the panel's terminals, which takes
 * it (and sends that key with Ctrl). One per terminal panel, as there is one key bar.
 */
export class StickyCtrl {
  private on = false
  private readonly subscribers = new Subscribers()

  subscribe = this.subscribers.add

  getSnapshot = (): boolean => this.on

  set(on: boolean): void {
    if (on === this.on) return
    this.on = on
    this.subscribers.notify()
  }

  /** Whether Ctrl applies to the key being typed now; it is off again afterwards. */
  take(): boolean {
    const was = this.on
    this.set(false)
    return was
  }
}
