import './classroom.css'
import { useQuery } from '@tanstack/react-query'
import { type KeyboardEvent, Suspense, useState } from 'react'
import type { ClassStudent, ClassSummary } from '../../contract/ideApiTypes'
import { classPagePath } from '../../contract/idePaths'
import { localStack } from '../../sandbox/localStack'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { lazyNamed } from '../../ui/lazyNamed'
import { ClassActions } from './ClassActions'
import { DeadlineSettings } from './DeadlineSettings'
import { ExtensionDialog } from './ExtensionDialog'
import { StudentRow } from './StudentRow'
import { refreshMs, useClassBoard } from './useClassBoard'
import { useClassDeadline } from './useClassDeadline'

/** The gradebook's code comes with its tab: the dashboard's first page does not wait for it. */
const Gradebook = lazyNamed(() => import('./Gradebook'), 'Gradebook')

type ClassTab = 'students' | 'gradebook'

/** The dashboard's views as tabs (arrow keys move between them, as in any tab list). */
function ClassTabs({ tab, onTab }: { tab: ClassTab; onTab(tab: ClassTab): void }) {
  const tabs: { id: ClassTab; title: string }[] = [
    { id: 'students', title: 'Students' },
    { id: 'gradebook', title: 'Gradebook' },
  ]
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -tabs.length, End: tabs.length }[event.key]
    if (!step) return
    event.preventDefault()
    const at = Math.min(tabs.length - 1, Math.max(0, tabs.findIndex((t) => t.id === tab) + step))
    const to = tabs[at]
    if (!to) return
    onTab(to.id)
    ;(event.currentTarget.children[at] as HTMLElement).focus()
  }
  return (
    <div role="tablist" aria-label="Views of the class" className="class-tabs" onKeyDown={onKeyDown}>
      {tabs.map(({ id, title }) => (
        <button
          key={id}
          id={`class-tab-${id}`}
          type="button"
          role="tab"
          aria-selected={id === tab}
          aria-controls={`class-panel-${id}`}
          tabIndex={id === tab ? 0 : -1}
          onClick={() => onTab(id)}
          // Fetched as the pointer comes near, so the tab opens at once.
          onPointerEnter={id === 'gradebook' ? Gradebook.preload : undefined}
        >
          {title}
        </button>
      ))}
    </div>
  )
}

/**
 * The teacher's dashboard of a class (`/class/{name}`): every student's state, last activity,
 * join link and last check, live; the check for everyone with how many pass; pause, resume and
 * extend for all; and per student: open their workspace, check, reset the lab, pause or resume,
 * and a new join link; the class's deadline and each student's extension; and a Gradebook tab. A
 * class on E2B has them all too: the stack keeps and grades its submissions and its deadline.
 */
export function ClassDashboard({ name, remoteId }: { name: string; remoteId?: string }) {
  const board = useClassBoard(name, remoteId)
  const deadline = useClassDeadline(board.place, name)
  const [extending, setExtending] = useState<string>()
  const [tab, setTab] = useState<ClassTab>('students')
  // Loaded the first time its tab is chosen, then kept (hidden) with what it shows.
  const [gradebookOpened, setGradebookOpened] = useState(false)
  const chooseTab = (chosen: ClassTab) => {
    setTab(chosen)
    if (chosen === 'gradebook') setGradebookOpened(true)
  }
  const panel = (id: ClassTab) => ({
    id: `class-panel-${id}`,
    role: 'tabpanel',
    'aria-labelledby': `class-tab-${id}`,
    hidden: tab !== id,
  })
  const [confirming, setConfirming] = useState<{ kind: 'end' } | { kind: 'reset'; student: ClassStudent }>()
  const { view } = board

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
      <ClassTabs tab={tab} onTab={chooseTab} />
      <section {...panel('students')}>
        <ClassActions board={board} onEnd={() => setConfirming({ kind: 'end' })} />
        <DeadlineSettings board={deadline} />
        <p role="status" className="class-summary">
          {board.summary ?? ''}
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
              <StudentRow
                key={s.sandboxId}
                student={s}
                board={board}
                onReset={(student) => setConfirming({ kind: 'reset', student })}
                due={deadline.dueOf(s.student)}
                onExtend={(student) => setExtending(student.student)}
              />
            ))}
          </tbody>
        </table>
      </section>
      <section {...panel('gradebook')}>
        {gradebookOpened && (
          <Suspense fallback={<p className="panel-message">Loading the gradebook…</p>}>
            <Gradebook name={name} place={board.place} active={tab === 'gradebook'} />
          </Suspense>
        )}
      </section>
      <ExtensionDialog
        student={extending}
        due={extending === undefined ? undefined : deadline.dueOf(extending)}
        onAnswer={(until) => {
          const student = extending
          setExtending(undefined)
          if (student !== undefined && until !== undefined) deadline.extend(student, until)
        }}
      />
      <ConfirmDialog
        open={confirming?.kind === 'end'}
        id="class-end"
        title={`End the class ${name}?`}
        confirm="End the class"
        onAnswer={(yes) => {
          setConfirming(undefined)
          if (yes) board.end()
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
          if (yes && target) board.resetLab(target)
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
