import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { CheckVerdict, ClassStudent, ClassSummary } from '../../contract/ideApiTypes'
import { classPagePath, sandboxPagePath } from '../../contract/idePaths'
import { localStack } from '../../sandbox/localStack'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { copyText } from '../../ui/copyText'
import { reportErrors } from '../../ui/notifications'
import { formatDuration, useNow } from '../../ui/useNow'

/** How often the dashboard asks again: live enough for a room, light for the stack. */
const refreshMs = 3000
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
 * The teacher's dashboard of a class (`/class/{name}`): every student's state, last activity,
 * join link and last check, live; the check for everyone with how many pass; pause, resume and
 * extend for all; and per student: open their workspace, check, reset the lab, pause or resume,
 * and a new join link.
 */
export function ClassDashboard({ name, remoteId }: { name: string; remoteId?: string }) {
  const queryClient = useQueryClient()
  const now = useNow(refreshMs)
  const place = remoteId ? { remoteId } : {}
  const key = ['class', remoteId ?? '', name]
  const view = useQuery({
    queryKey: key,
    queryFn: () => localStack.classes.view(place, name),
    refetchInterval: refreshMs,
  })
  const [summary, setSummary] = useState<string>()
  const [confirming, setConfirming] = useState<{ kind: 'end' } | { kind: 'reset'; student: ClassStudent }>()
  const refresh = () => queryClient.invalidateQueries({ queryKey: key })
  const act = useMutation({
    mutationFn: async ({ run }: { what: string; run: () => Promise<unknown> }) => run(),
    onError: (err, { what }) => void reportErrors(what, () => Promise.reject(err)),
    onSettled: refresh,
  })
  const busy = act.isPending
  const run = (what: string, work: () => Promise<unknown>) => act.mutate({ what, run: work })

  const checkAll = (sandboxIds?: string[]) =>
    run('The check failed', async () => {
      setSummary(sandboxIds ? undefined : 'Checking every student’s lab…')
      const answer = await localStack.classes.check(place, name, sandboxIds)
      if (!sandboxIds)
        setSummary(
          `${answer.passed} of ${answer.checked} passing${
            answer.checked < answer.students
              ? ` (${answer.students - answer.checked} paused, not checked)`
              : ''
          }`,
        )
    })
  const newLink = (student: ClassStudent) =>
    run('Making a new link failed', async () => {
      const link = await localStack.classes.newJoinLink(place, student.sandboxId)
      const url = `${location.origin}/join#token=${link.token}`
      await copyText(url)
      setSummary(
        `A new link for ${student.student} is on the clipboard; the old one no longer opens anything.`,
      )
    })

  if (view.isPending) return <p className="panel-message">Loading the class…</p>
  if (view.isError)
    return (
      <main className="picker" aria-label={`Class ${name}`}>
        <p role="alert">{view.error.message}</p>
      </main>
    )
  const { students } = view.data
  const running = students.filter((s) => s.state === 'running').length
  const passing = students.filter((s) => s.check?.passed === true).length
  const checked = students.filter((s) => s.check && s.check.passed !== null).length
  return (
    <main className="picker class-dashboard" aria-labelledby="class-title">
      <div className="picker-header">
        <h2 id="class-title">Class {name}</h2>
        {remoteId && <span className="muted">on E2B</span>}
        <span>
          {students.length} students · {running} running ·{' '}
          {checked > 0 ? `${passing} of ${checked} passing` : 'no checks yet'}
        </span>
      </div>
      <div role="toolbar" aria-label="The whole class" className="row-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => checkAll()}>
          Run the check for everyone
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => run('Pausing failed', () => localStack.classes.pauseOrResume(place, name, 'pause'))}
        >
          Pause all
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            run('Resuming failed', () => localStack.classes.pauseOrResume(place, name, 'resume'))
          }
        >
          Resume all
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => run('Extending failed', () => localStack.classes.extend(place, name, 2 * hour))}
        >
          Give everyone 2 hours
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => setConfirming({ kind: 'end' })}
        >
          End the class…
        </button>
      </div>
      <p role="status" className="class-summary">
        {summary ?? ''}
      </p>
      <table className="sandbox-table" aria-label={`Students of ${name}`}>
        <thead>
          <tr>
            <th scope="col">Student</th>
            <th scope="col">State</th>
            <th scope="col">Last activity</th>
            <th scope="col">Join link</th>
            <th scope="col">Last check</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {students.map((s) => (
            <tr key={s.sandboxId} aria-label={s.student}>
              <th scope="row">{s.student}</th>
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
                  onClick={() => checkAll([s.sandboxId])}
                >
                  Check
                </button>
                <button
                  type="button"
                  disabled={busy || s.state !== 'running'}
                  aria-label={`Reset ${s.student}'s lab`}
                  onClick={() => setConfirming({ kind: 'reset', student: s })}
                >
                  Reset…
                </button>
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`${s.state === 'running' ? 'Pause' : 'Resume'} ${s.student}'s sandbox`}
                  onClick={() =>
                    run('That failed', () =>
                      localStack.classes.pauseOrResume(
                        place,
                        name,
                        s.state === 'running' ? 'pause' : 'resume',
                        [s.sandboxId],
                      ),
                    )
                  }
                >
                  {s.state === 'running' ? 'Pause' : 'Resume'}
                </button>
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`New join link for ${s.student}`}
                  onClick={() => newLink(s)}
                >
                  New link
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ConfirmDialog
        open={confirming?.kind === 'end'}
        id="class-end"
        title={`End the class ${name}?`}
        confirm="End the class"
        onAnswer={(yes) => {
          setConfirming(undefined)
          if (yes) run('Ending the class failed', () => localStack.classes.end(place, name))
        }}
      >
        Every student’s sandbox is killed, with their files. Their links stop working.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming?.kind === 'reset'}
        id="class-reset"
        title={confirming?.kind === 'reset' ? `Reset ${confirming.student.student}'s lab?` : 'Reset the lab?'}
        confirm="Reset"
        onAnswer={(yes) => {
          const target = confirming?.kind === 'reset' ? confirming.student : undefined
          setConfirming(undefined)
          if (yes && target)
            run('The reset failed', () => localStack.classes.resetLab(place, target.sandboxId))
        }}
      >
        The lab’s starting files come back over the student’s changes to them; files they added are kept.
      </ConfirmDialog>
    </main>
  )
}

/** The classes on this stack and on each E2B remote it holds a key for; a remote that fails says so. */
async function everyClass(): Promise<{ classes: ClassSummary[]; failures: string[] }> {
  const remotes = await localStack.remotes()
  const results = await Promise.allSettled([
    localStack.classes.list(),
    ...remotes.map((r) => localStack.classes.list({ remoteId: r.remoteId })),
  ])
  const classes: ClassSummary[] = []
  const failures: string[] = []
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') classes.push(...result.value)
    else
      failures.push(
        `${i === 0 ? 'This stack' : `E2B at ${remotes[i - 1]?.apiUrl}`}: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`,
      )
  })
  return { classes, failures }
}

/** `/class`: the classes on this stack and on E2B, each a link to its dashboard. */
export function ClassList() {
  const found = useQuery({
    queryKey: ['classes'],
    queryFn: everyClass,
    refetchInterval: refreshMs,
  })
  const classes = { ...found, data: found.data?.classes }
  return (
    <main className="picker" aria-labelledby="classes-title">
      <h2 id="classes-title">Classes on this machine</h2>
      {classes.isError && <p role="alert">{classes.error.message}</p>}
      {found.data?.failures.map((failure) => (
        <p role="alert" key={failure}>
          {failure}
        </p>
      ))}
      {classes.data?.length === 0 && (
        <p>
          No class yet. Start one with <code>npm run class -- --template python-basics --students 20</code>.
        </p>
      )}
      <ul>
        {classes.data?.map((c) => (
          <li key={`${c.remoteId ?? ''}/${c.name}`}>
            <a href={classPagePath(c.name, c.remoteId)}>{c.name}</a>
            {c.remoteId ? ' (on E2B)' : ''} · {c.students} students, {c.running} running
          </li>
        ))}
      </ul>
    </main>
  )
}
