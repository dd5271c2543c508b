import { useExternalStore } from '../../ui/useExternalStore'
import type { TerminalInstance } from './TerminalInstance'
import type { TerminalManager } from './TerminalManager'

const noTerminal = { subscribe: () => () => {}, getSnapshot: () => undefined }

/**
 * The active terminal's round trip, keystroke to echo, for the status bar: a slow network shows
 * as a number, not as a mystery. Nothing until keys were typed.
 */
export function TerminalEchoStatus({ terminals }: { terminals: TerminalManager }) {
  useExternalStore(terminals)
  const active: TerminalInstance | undefined = terminals.active
  const snapshot = useExternalStore(active ?? noTerminal)
  const ms = snapshot?.echoMs
  if (ms === undefined) return null
  const predicting = snapshot?.predicting
    ? '; typed keys are drawn at once, dimmed until the sandbox echoes them (Terminal: Predictive echo)'
    : ''
  return (
    <span
      className="terminal-echo"
      data-testid="terminal-echo"
      title={`${active?.record.title}: a typed key reaches the sandbox and its echo comes back in ${ms} ms (median of the last keys)${predicting}`}
    >
      Echo {ms} ms{snapshot?.predicting ? ' · predicted' : ''}
    </span>
  )
}
