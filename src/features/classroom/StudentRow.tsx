import type { CheckVerdict, ClassStudent } from '../../contract/ideApiTypes'
import { sandboxPagePath } from '../../contract/idePaths'
import { formatDuration } from '../../ui/useNow'
import { dueWhen } from './localTime'
import type { ClassBoard } from './useClassBoard'

const hour = 60 * 60

/** "just now", "4 min ago", "2 h ago". */
function ago(iso: string | null, now: number): string {
  if (!iso) return 'not since the stack started'
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000))
  if (seconds < 10) return 'just now'
  if (seconds < 60) return `${seconds} s ago`
  if (seconds < hour) return `${Math.floor(seconds / 60)} min ago`
  return `${Math.floor(seconds / hour)} h ago`
}

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

function CheckCell({ check }: { check: CheckVerdict | null }) {
  if (!check) return <span className="muted">not checked</span>
  if (check.passed === null)
    return (
      <span title={check.error}>
        — <span className="muted">{check.error}</span>
      </span>
    )
  return (
    <details className="check-verdict">
      <summary>
        <span className={check.passed ? 'check-pass' : 'check-fail'}>
          {check.passed ? 'passed' : 'failed'}
        </span>{' '}
        at {clock(check.at)}
      </summary>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long output scrolls, and the keyboard must reach it (WCAG 2.1.1) */}
      <pre tabIndex={0}>{check.output.trim() || check.status}</pre>
    </details>
  )
}

function linkText(link: ClassStudent['link']): string {
  if (link.state === 'none') return 'no link'
  if (link.state === 'waiting') return `not opened yet (until ${clock(link.expiresAt)})`
  return `opened at ${clock(link.at)}`
}

/**
 * One student of the dashboard: state and time left, last activity, join link, last check, and
 * what the teacher can do to their sandbox. A reset asks first, so the dashboard holds its dialog.
 */
export function StudentRow({
  student: s,
  board,
  onReset,
  due,
  onExtend,
}: {
  student: ClassStudent
  board: ClassBoard
  onReset(student: ClassStudent): void
  /** Their deadline, when the class has one. */
  due?: { at: string; extended: boolean } | undefined
  /** Asks for their extension. */
  onExtend?: (student: ClassStudent) => void
}) {
  const { now, busy, place } = board
  return (
    <tr aria-label={s.student}>
      <th scope="row">
        {s.student}
        {due && (
          <span className="muted">
            {' '}
            · due {dueWhen(due.at)}
            {due.extended ? ' (extension)' : ''}
          </span>
        )}
      </th>
      <td>
        {s.state}
        {s.state === 'running' && (
          <span className="muted"> · {formatDuration(Date.parse(s.endAt) - now)} left</span>
        )}
      </td>
      <td>{ago(s.lastActivityAt, now)}</td>
      <td>{linkText(s.link)}</td>
      <td>
        <CheckCell check={s.check} />
      </td>
      <td className="row-actions">
        <a
          href={sandboxPagePath({ sandboxId: s.sandboxId, ...place })}
          target="_blank"
          rel="noopener"
          aria-label={`Open ${s.student}'s workspace`}
        >
          Open
        </a>
        <button
          type="button"
          disabled={busy || s.state !== 'running'}
          aria-label={`Check ${s.student}'s lab`}
          onClick={() => board.check([s.sandboxId])}
        >
          Check
        </button>
        <button
          type="button"
          disabled={busy || s.state !== 'running'}
          aria-label={`Reset ${s.student}'s lab`}
          onClick={() => onReset(s)}
        >
          Reset…
        </button>
        <button
          type="button"
          disabled={busy}
          aria-label={`${s.state === 'running' ? 'Pause' : 'Resume'} ${s.student}'s sandbox`}
          onClick={() => board.pauseOrResume(s)}
        >
          {s.state === 'running' ? 'Pause' : 'Resume'}
        </button>
        {onExtend && (
          <button type="button" aria-label={`Extension for ${s.student}…`} onClick={() => onExtend(s)}>
            Extension…
          </button>
        )}
        <button
          type="button"
          disabled={busy}
          aria-label={`New join link for ${s.student}`}
          onClick={() => board.newLink(s)}
        >
          New link
        </button>
      </td>
    </tr>
  )
}
