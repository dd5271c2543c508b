import type { ProcessInfo } from '../../sandbox/sandboxProcesses'
import { commandLine, isIdeTerminal, languageProcessLabel } from './commandLine'

/** Where a kill stands: SIGTERM sent, or the SIGKILL fallback after the grace period. */
export type StopPhase = 'terminating' | 'killing'

interface ProcessItemProps {
  info: ProcessInfo
  /** No terminal anywhere shows it (known only where the runtime says). */
  detached: boolean
  stopping: StopPhase | undefined
  /** Actions are off while the sandbox is not running. */
  disabled: boolean
  onOpen(info: ProcessInfo): void
  onKill(pid: number): void
}

/**
 * One process of the list: pid, command line (or a language server's name, its command line in
 * the tooltip) and tag as plain text, and its actions.
 */
export function ProcessItem({ info, detached, stopping, disabled, onOpen, onKill }: ProcessItemProps) {
  const { pid, tag } = info
  const command = commandLine(info.config)
  const label = languageProcessLabel(tag)
  return (
    <li className="process-item" aria-busy={stopping !== undefined}>
      <div className="process-line">
        <span className="process-pid">
          <span className="visually-hidden">PID </span>
          {pid}
        </span>
        {label ? (
          <span className="process-command" title={command}>
            {label}
          </span>
        ) : (
          <code className="process-command" title={command}>
            {command}
          </code>
        )}
      </div>
      <div className="process-line">
        {isIdeTerminal(tag) && (
          <span className="process-badge">{detached ? 'IDE terminal, detached' : 'IDE terminal'}</span>
        )}
        <span className="process-tag" title={tag}>
          <span className="visually-hidden">Tag </span>
          {tag ?? 'no tag'}
        </span>
        <button
          type="button"
          disabled={disabled}
          aria-label={`Open ${pid} in a terminal`}
          onClick={() => onOpen(info)}
        >
          Open
        </button>
        {/* aria-disabled, not disabled, while stopping: a disabled button would drop keyboard focus. */}
        <button
          type="button"
          className="danger"
          disabled={disabled}
          aria-disabled={stopping !== undefined}
          aria-label={`Kill ${pid}`}
          onClick={() => {
            if (!stopping) onKill(pid)
          }}
        >
          Kill
        </button>
      </div>
      {/* Always rendered, so screen readers announce the progress that appears in it. */}
      <span className="process-stopping" role="status">
        {stopping === 'terminating' && `Stopping ${pid}…`}
        {stopping === 'killing' && `Killing ${pid} (SIGKILL)…`}
      </span>
    </li>
  )
}
