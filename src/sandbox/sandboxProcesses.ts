import { create } from '@bufbuild/protobuf'
import { type CommandResult, type RunOptions, runCommand } from '../api/runCommand'
import { attachedPidsHeader } from '../contract/runtimeExtensions'
import { type ProcessInfo, type ProcessSelector, ProcessSelectorSchema, Signal } from '../gen/process_pb'
import type { RuntimeClients } from './runtimeClients'
import { isNotFound, mapped, notConnected } from './sandboxError'

// The vocabulary of processes that features speak, through this layer only.
export type { CommandResult, RunOptions } from '../api/runCommand'
export type { ProcessConfig, ProcessInfo } from '../gen/process_pb'

/** The selector of a process by pid: the one way this IDE names a running process. */
export function pidSelector(pid: number): ProcessSelector {
  return create(ProcessSelectorSchema, { selector: { case: 'pid', value: pid } })
}

/** The signals envd sends (anything else is `unimplemented` there). */
export type ProcessSignal = 'SIGTERM' | 'SIGKILL'

/** A sandbox's processes, as features use them; every failure is a SandboxError with the server's message. */
/** The processes that run, and which of them some stream reads (when the runtime says). */
export interface ProcessListing {
  processes: ProcessInfo[]
  /** The pids a terminal somewhere shows; undefined where the runtime does not say (envd). */
  attached: ReadonlySet<number> | undefined
}

export interface SandboxProcesses {
  /** The processes the runtime started and that still run. */
  list(): Promise<ProcessInfo[]>
  /** The same, with which of them a terminal (any page's) shows now. */
  listing(): Promise<ProcessListing>
  /** Sends a signal to the pid alone; false when there is no such process (any more). */
  signal(pid: number, signal: ProcessSignal): Promise<boolean>
  /** Resolves when the process has a PTY, a terminal can attach to it; throws the runtime's answer otherwise. */
  assertPty(pid: number): Promise<void>
  /** Runs a command without a terminal (stdin closed) to its end and gathers its output. */
  run(cmd: string, options?: RunOptions): Promise<CommandResult>
}

/** What SandboxProcesses needs of a session: its clients, once it knows its runtime. */
export interface ProcessesConnection {
  readonly clients: RuntimeClients | undefined
}

const noBytes = new Uint8Array(0)

/** SandboxProcesses over a session's runtime (the Process service). */
export function sandboxProcesses(connection: ProcessesConnection): SandboxProcesses {
  const process = () => {
    const clients = connection.clients
    if (!clients) throw notConnected()
    return clients.process
  }
  return {
    list: () => mapped(async () => (await process().list({})).processes),
    listing: () =>
      mapped(async () => {
        let attached: Set<number> | undefined
        const { processes } = await process().list(
          {},
          {
            onHeader: (headers) => {
              const pids = headers.get(attachedPidsHeader)
              if (pids !== null) attached = new Set(pids.split(',').filter(Boolean).map(Number))
            },
          },
        )
        return { processes, attached }
      }),
    signal: (pid, signal) =>
      mapped(async () => {
        try {
          await process().sendSignal({ process: pidSelector(pid), signal: Signal[signal] })
          return true
        } catch (err) {
          if (isNotFound(err)) return false
          throw err
        }
      }),
    // List does not say; the runtime refuses PTY input to a process without one ("tty not
    // assigned to process"), so empty PTY input asks without typing anything.
    assertPty: (pid) =>
      mapped(async () => {
        await process().sendInput({
          process: pidSelector(pid),
          input: { input: { case: 'pty', value: noBytes } },
        })
      }),
    run: (cmd, options) => mapped(() => runCommand(process(), cmd, options)),
  }
}
