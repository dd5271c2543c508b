import { useId, useState } from 'react'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import type { ProcessInfo } from '../../sandbox/sandboxProcesses'
import { IconButton } from '../../ui/IconButton'
import { reportErrors } from '../../ui/notifications'
import { useExternalStore } from '../../ui/useExternalStore'
import { attachTitle } from './commandLine'
import { ProcessItem, type StopPhase } from './ProcessItem'
import { stopProcess } from './stopProcess'
import { useProcessList } from './useProcessList'

interface ProcessPanelProps {
  session: SandboxSession
  /** Opens a terminal on a PTY process (the app wires it to the terminal manager). */
  onAttach(pid: number, title: string): void
}

/** The sandbox's processes (List), each one to open in a terminal or to kill. */
export function ProcessPanel({ session, onAttach }: ProcessPanelProps) {
  const running = useExternalStore(session).state.kind === 'running'
  const list = useProcessList(session)
  const titleId = useId()
  const [stopping, setStopping] = useState<ReadonlyMap<number, StopPhase>>(new Map())
  const setPhase = (pid: number, phase: StopPhase | undefined) =>
    setStopping((current) => {
      const next = new Map(current)
      if (phase) next.set(pid, phase)
      else next.delete(pid)
      return next
    })

  const open = (info: ProcessInfo) =>
    void reportErrors(`Opening ${info.pid} in a terminal failed`, async () => {
      await session.processes.assertPty(info.pid)
      onAttach(info.pid, attachTitle(info.config, info.pid))
    })

  // The kill runs to its end even if the panel unmounts meanwhile: the user asked for it.
  const kill = (pid: number) => {
    setPhase(pid, 'terminating')
    void reportErrors(`Stopping ${pid} failed`, async () => {
      await stopProcess(session.processes, pid, { onEscalate: () => setPhase(pid, 'killing') })
    }).finally(() => {
      setPhase(pid, undefined)
      void list.refetch()
    })
  }

  return (
    <section className="panel processes" aria-labelledby={titleId}>
      <div className="panel-header">
        <h2 className="panel-title" id={titleId}>
          Processes
        </h2>
        <IconButton
          icon="refresh"
          label="Refresh processes"
          disabled={!running}
          onClick={() => list.refetch()}
        />
      </div>
      {!running && <p className="panel-message">The list is updated while the sandbox runs.</p>}
      {running && list.isError && (
        <p className="panel-message" role="alert">
          {list.error.message}
        </p>
      )}
      {/* The last list stays in view while paused, with its actions off. */}
      {list.data && (
        <ul className="process-list" aria-label="Processes">
          {list.data.processes.map((info) => (
            <ProcessItem
              key={info.pid}
              info={info}
              detached={list.data.attached !== undefined && !list.data.attached.has(info.pid)}
              stopping={stopping.get(info.pid)}
              disabled={!running}
              onOpen={open}
              onKill={kill}
            />
          ))}
        </ul>
      )}
      {list.data?.processes.length === 0 && <p className="panel-message">No processes are running.</p>}
    </section>
  )
}
