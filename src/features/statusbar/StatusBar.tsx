import type { ReactNode } from 'react'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { stateLabel } from '../../sandbox/sessionState'
import { useExternalStore } from '../../ui/useExternalStore'
import { UsageMeters } from './UsageMeters'
import { useSandboxUsage } from './useSandboxUsage'

const sourceLabel = { local: 'local stack', e2b: 'E2B', runtime: 'runtime URL' } as const

/** Connection state and where the sandbox lives, always visible at the bottom; `children` add items. */
export function StatusBar({ session, children }: { session: SandboxSession; children?: ReactNode }) {
  const snap = useExternalStore(session)
  const { state } = snap
  const usage = useSandboxUsage(session, state.kind === 'running')
  const detail =
    state.kind === 'reconnecting' ||
    state.kind === 'unreachable' ||
    state.kind === 'gone' ||
    state.kind === 'signed-out'
      ? ` — ${state.reason}`
      : state.kind === 'paused' && state.processesLost
        ? ' — its processes ended; resuming starts fresh ones'
        : ''
  return (
    <section className="statusbar" aria-label="Status bar">
      <span role="status" data-testid="connection-status">
        {stateLabel(state)}
        {detail}
      </span>
      <span className="toolbar-spacer" />
      {children}
      {usage && <UsageMeters usage={usage} />}
      <span>{sourceLabel[snap.source]}</span>
      <span>Ctrl+Shift+P: commands</span>
    </section>
  )
}
