import type { PointerEvent } from 'react'
import { Icon } from '../../ui/Icon'
import { useExternalStore } from '../../ui/useExternalStore'
import type { TerminalInstance } from './TerminalInstance'
import type { StickyCtrl, TouchKey } from './touchKeys'

const keys: { key: TouchKey; label: string; text?: string; icon?: string }[] = [
  { key: 'Escape', label: 'Escape', text: 'Esc' },
  { key: 'Tab', label: 'Tab', text: 'Tab' },
  { key: 'ArrowLeft', label: 'Left', icon: 'arrow-left' },
  { key: 'ArrowUp', label: 'Up', icon: 'arrow-up' },
  { key: 'ArrowDown', label: 'Down', icon: 'arrow-down' },
  { key: 'ArrowRight', label: 'Right', icon: 'arrow-right' },
]

/** A tap on a key must not take the focus (and the on-screen keyboard) from the terminal. */
const keepFocus = (e: PointerEvent) => e.preventDefault()

/**
 * The keys a phone's keyboard lacks, for the active terminal: Esc, Tab, a Ctrl that applies to
 * the next key typed (Ctrl, then C on the on-screen keyboard, is Ctrl+C), and the arrows.
 */
export function TerminalKeyBar({
  ctrl: stickyCtrl,
  target,
}: {
  ctrl: StickyCtrl
  /** The terminal the keys go to: the one the keyboard is in, or the active one. */
  target(): TerminalInstance | undefined
}) {
  const ctrl = useExternalStore(stickyCtrl)
  return (
    <div role="toolbar" aria-label="Terminal keys" className="terminal-key-bar">
      <button
        type="button"
        aria-pressed={ctrl}
        onPointerDown={keepFocus}
        onClick={() => {
          stickyCtrl.set(!ctrl)
          target()?.focus()
        }}
      >
        Ctrl
      </button>
      {keys.map(({ key, label, text, icon }) => (
        <button
          key={key}
          type="button"
          aria-label={label}
          onPointerDown={keepFocus}
          onClick={() => {
            const terminal = target()
            terminal?.pressKey(key)
            terminal?.focus()
          }}
        >
          {icon ? <Icon name={icon} /> : text}
        </button>
      ))}
    </div>
  )
}
