import type { SandboxSession } from '../../sandbox/SandboxSession'
import { stateLabel } from '../../sandbox/sessionState'
import { useTimeLeft } from '../../ui/timeLeft'
import { useExternalStore } from '../../ui/useExternalStore'
import { useNow } from '../../ui/useNow'
import { sandboxActions } from './sandboxActions'

/** The sandbox's id, state, pause/resume, time left with a way to extend it. */
export function SandboxToolbar({
  session,
  children,
}: {
  session: SandboxSession
  children?: React.ReactNode
}) {
  const snap = useExternalStore(session)
  const actions = sandboxActions(session)
  const { state } = snap
  const timeLeft = useTimeLeft(snap.endAt)
  return (
    <div className="toolbar" role="toolbar" aria-label="Sandbox">
      <span className="toolbar-id" title="Sandbox id">
        {snap.sandboxId ?? snap.runtimeUrl ?? '…'}
      </span>
      <span className={`state-badge state-${state.kind}`} data-testid="sandbox-state">
        {stateLabel(state)}
      </span>
      {state.kind === 'reconnecting' && (
        <>
          <ReconnectCountdown nextTryAt={state.nextTryAt} />
          <button type="button" onClick={actions.retryNow}>
            Retry now
          </button>
        </>
      )}
      {snap.hasPlatform && state.kind === 'running' && (
        <button type="button" onClick={actions.pause}>
          Pause
        </button>
      )}
      {snap.hasPlatform && state.kind === 'paused' && (
        <button type="button" className="primary" onClick={actions.resume}>
          Resume
        </button>
      )}
      {snap.hasPlatform && snap.endAt !== undefined && (
        <>
          <span
            className="muted"
            title={`Time before the sandbox's timeout, at ${new Date(snap.endAt).toLocaleTimeString()}`}
            data-testid="time-left"
          >
            Time left {timeLeft}
          </span>
          <button type="button" onClick={actions.extend} title="Add 30 minutes to the time left">
            Extend
          </button>
        </>
      )}
      {snap.teacherHere && (
        <span className="teacher-here" role="status" title="Your teacher sees your terminals and files">
          Your teacher is here
        </span>
      )}
      <span className="toolbar-spacer" />
      {children}
    </div>
  )
}

/** Seconds until the next try to reconnect; ticks only while it is shown. */
function ReconnectCountdown({ nextTryAt }: { nextTryAt: number }) {
  const now = useNow()
  return (
    <span className="muted" data-testid="reconnect-countdown">
      next try in {Math.max(0, Math.ceil((nextTryAt - now) / 1000))} s
    </span>
  )
}
