import { Suspense, useEffect, useRef } from 'react'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import type { TerminalStatus } from '../../sandbox/TerminalConnection'
import { lazyNamed } from '../../ui/lazyNamed'
import { useExternalStore } from '../../ui/useExternalStore'
import type { TerminalInstance } from './TerminalInstance'

/** Find in the terminal comes with its first use: no page needs it before it renders. */
const TerminalSearch = lazyNamed(() => import('./TerminalSearch'), 'TerminalSearch')

function statusText(status: TerminalStatus): string | undefined {
  switch (status.kind) {
    case 'starting':
      return 'Starting shell…'
    case 'detached':
      return `Reconnecting to the shell: ${status.reason}`
    case 'exited':
      return `The shell ended: ${status.description}`
    case 'failed':
      return `The shell could not start: ${status.reason}`
    default:
      return undefined
  }
}

/** One terminal on screen: it adopts the instance's screen, and says when input is off and why. */
export function TerminalPane({ instance, session }: { instance: TerminalInstance; session: SandboxSession }) {
  const host = useRef<HTMLDivElement>(null)
  const { status, title, find } = useExternalStore(instance)
  const state = useExternalStore(session).state
  useEffect(() => {
    if (!host.current) return
    instance.attachTo(host.current)
    return () => instance.detach()
  }, [instance])
  const away = state.kind !== 'running' && state.kind !== 'connecting'
  // A paused sandbox breaks its streams (as E2B's does): the overlay says why; the shell is
  // attached again when it resumes, so "reconnecting" would only add noise.
  const notice = away && status.kind === 'detached' ? undefined : statusText(status)
  return (
    <section className="terminal" aria-label={instance.record.title} title={title}>
      <div className="terminal-host" ref={host} />
      {find && (
        <Suspense fallback={null}>
          <TerminalSearch
            loadSearch={instance.addons.search}
            focusRequest={find.request}
            initial={find.initial}
            onClose={() => instance.closeFind()}
          />
        </Suspense>
      )}
      {away && (
        <div className="terminal-overlay" role="status">
          {state.kind === 'paused'
            ? 'Sandbox paused: input is disabled until it resumes'
            : 'Input is disabled until the sandbox is back'}
        </div>
      )}
      {notice && (
        <div className="terminal-status" role="status">
          <span>{notice}</span>
          {(status.kind === 'exited' || status.kind === 'failed') && (
            <button type="button" onClick={() => instance.restart()}>
              Restart
            </button>
          )}
        </div>
      )}
    </section>
  )
}
