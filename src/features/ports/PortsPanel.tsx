import type { PortWatch } from '../../sandbox/portWatch'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { copyText } from '../../ui/copyText'
import { reportErrors } from '../../ui/notifications'
import { useExternalStore } from '../../ui/useExternalStore'

/** A command line as a row shows it: the program's own name, not its folder. */
export function shortCommand(command: string): string {
  const [program = '', ...args] = command.split(' ')
  return [program.slice(program.lastIndexOf('/') + 1), ...args].join(' ')
}

/**
 * The ports the sandbox's programs listen on, found live, with the process behind each where the
 * sandbox tells it, and what to do with it: preview it beside the code, open it in a tab of its
 * own, or copy its URL (no token in it: a port's URL is E2B's public `{port}-{sandboxId}` address).
 */
export function PortsPanel({
  session,
  watch,
  onPreview,
}: {
  session: SandboxSession
  watch: PortWatch
  onPreview(port: number): void
}) {
  const running = useExternalStore(session).state.kind === 'running'
  const seen = useExternalStore(watch)
  const ports = running ? seen : undefined
  return (
    <section className="panel ports" aria-label="Ports">
      <div className="panel-header">
        <h2 className="panel-title">Ports</h2>
      </div>
      {!ports || ports.length === 0 ? (
        <p className="panel-message">
          {running
            ? 'Nothing listens yet. Start a server (python3 -m http.server 8000) and it shows here.'
            : ''}
        </p>
      ) : (
        <ul className="ports-list">
          {ports.map(({ port, allAddresses, owner }) => {
            const url = session.portUrl(port)
            return (
              <li key={port} aria-label={`Port ${port}`}>
                <span className="port-number">{port}</span>
                {!allAddresses && <span className="port-note">localhost only</span>}
                {owner && (
                  <span className="port-owner" title={`${owner.command} (pid ${owner.pid})`}>
                    {shortCommand(owner.command)} · pid {owner.pid}
                  </span>
                )}
                <span className="toolbar-spacer" />
                <button type="button" onClick={() => onPreview(port)}>
                  Preview
                </button>
                {url && (
                  <>
                    <a
                      href={url}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={`Open port ${port} in a new tab`}
                    >
                      Open
                    </a>
                    <button
                      type="button"
                      aria-label={`Copy the URL of port ${port}`}
                      onClick={() => void reportErrors('Copying the URL failed', () => copyText(url))}
                    >
                      Copy URL
                    </button>
                  </>
                )}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
