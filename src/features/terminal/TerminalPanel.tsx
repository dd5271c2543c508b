import type { SandboxSession } from '../../sandbox/SandboxSession'
import { TerminalView } from './TerminalView'

/** The terminal area under the editor. */
export function TerminalPanel({ session, theme }: { session: SandboxSession; theme: 'light' | 'dark' }) {
  return (
    <div className="panel terminal-panel">
      <div className="panel-header">
        <h2 className="panel-title">Terminal</h2>
      </div>
      <TerminalView session={session} theme={theme} label="Terminal 1" />
    </div>
  )
}
