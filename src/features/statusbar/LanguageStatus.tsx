import { useId } from 'react'
import type { ServerState } from '../../sandbox/language/LanguageClient'
import type { LanguageService, ServerStatus } from '../../sandbox/language/LanguageService'
import { Icon } from '../../ui/Icon'
import { useExternalStore } from '../../ui/useExternalStore'
import { useNow } from '../../ui/useNow'
import { type ServerInstalls, serverInstalls } from './serverInstalls'
import { type InstallState, serverStatusText } from './serverStatusText'

/** When the status bar first saw each state: a restart's countdown starts there (the state says only its delay). */
const seenAt = new WeakMap<ServerState, number>()
function firstSeen(state: ServerState): number {
  const at = seenAt.get(state) ?? Date.now()
  seenAt.set(state, at)
  return at
}

/**
 * Code intelligence in the status bar, as VS Code has it: the problem counts (a button to the
 * Problems panel) and, only when one is not running, each language server's state with what
 * can be done about it (install a missing one, retry a failed one).
 */
export function LanguageStatus({
  language,
  onShowProblems,
}: {
  language: LanguageService
  /** Shows the Problems panel and gives it the keyboard (Ctrl+Shift+M); without it the counts are text. */
  onShowProblems?: (() => void) | undefined
}) {
  const snapshot = useExternalStore(language)
  const installs = serverInstalls(language)
  const installing = useExternalStore(installs)
  // The languages file's own problems are errors too (the Problems panel lists them first).
  const errors = snapshot.errors + snapshot.problems.length
  const { warnings } = snapshot
  const summary = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`
  const counts = (
    <>
      <Icon name="error" /> {errors} <Icon name="warning" /> {warnings}
    </>
  )
  // Servers that say something; the rest (running, idle) take no room.
  const shown = snapshot.servers.filter((s) => serverStatusText(s, installing.get(s.key), 1) !== undefined)
  return (
    <>
      {shown.length > 0 && (
        <span className="language-servers">
          {shown.map((server) => (
            <ServerItem
              key={server.key}
              server={server}
              install={installing.get(server.key)}
              installs={installs}
              onRetry={() => language.retry(server.key)}
            />
          ))}
        </span>
      )}
      {onShowProblems ? (
        <button
          type="button"
          className="statusbar-item"
          aria-label={`Problems: ${summary}`}
          aria-keyshortcuts="Control+Shift+M"
          title={`Problems: ${summary} (Ctrl+Shift+M)`}
          onClick={onShowProblems}
        >
          {counts}
        </button>
      ) : (
        <span className="statusbar-item" title={`Problems: ${summary}`}>
          <span className="visually-hidden">Problems: {summary}</span>
          <span aria-hidden="true">{counts}</span>
        </span>
      )}
    </>
  )
}

function ServerItem({
  server,
  install,
  installs,
  onRetry,
}: {
  server: ServerStatus
  install: InstallState | undefined
  installs: ServerInstalls
  onRetry(): void
}) {
  // Mounted only while a server is not running, so the clock ticks only then.
  const now = useNow(1000)
  const { state } = server
  const left = state.kind === 'restarting' ? firstSeen(state) + state.inMs - now : 0
  const reasonId = useId()
  const status = serverStatusText(server, install, left)
  if (!status) return null
  const button = (label: string, text: string, run: () => void) => (
    <button
      type="button"
      className="statusbar-action"
      aria-label={label}
      aria-describedby={status.title ? reasonId : undefined}
      title={status.title}
      onClick={run}
    >
      {text}
    </button>
  )
  return (
    <span className="language-server">
      <span title={status.title}>{status.text}</span>
      {status.title && (
        <span id={reasonId} hidden>
          {status.title}
        </span>
      )}
      {status.action === 'install' &&
        button(`Install ${server.name}`, 'Install', () => void installs.install(server.key, server.name))}
      {status.action === 'retry' && button(`Retry ${server.name}`, 'Retry', onRetry)}
    </span>
  )
}
