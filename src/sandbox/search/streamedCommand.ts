import { readProcessStream } from '../../api/processStream'
import { streamHeaders } from '../../api/runtimeTransport'
import type { SandboxSession } from '../SandboxSession'
import { sandboxError } from '../sandboxError'

/** What a search needs of a session: a stream to start processes on, and signals to end them. */
export type CommandSession = Pick<SandboxSession, 'streamEndpoint' | 'processes'>

/** A program and its arguments, each passed as it is (no shell reads them). */
export interface CommandLine {
  program: string
  args: readonly string[]
  cwd?: string
  /** The runtime's tag, so the process list says what it is. */
  tag: string
}

/** How it ended: its exit code (undefined when killed or its stream was lost) and the runtime's words. */
export interface CommandEnd {
  exitCode: number | undefined
  status: string
  /** Ended by `kill()`. */
  killed: boolean
}

/**
 * A bash that finds `program` on a login shell's PATH (where E2B's SDK looks too, so a ripgrep in
 * ~/.cargo/bin counts) and becomes it: the arguments stay argv entries, never read by a shell, so
 * a query or a glob with quotes, `$` or newlines is passed as typed. `exec` keeps the pid, so a
 * signal to it reaches the program itself; a missing program ends with 127.
 */
const loginExec = (line: CommandLine) => ['-l', '-c', 'exec "$0" "$@"', line.program, ...line.args]

/** Exit status of a shell that did not find the command. */
export const commandNotFound = 127

/**
 * One process started through the runtime's `Start` (no PTY, stdin closed), its stdout and stderr
 * handed over as bytes as they come; `kill()` sends SIGKILL to its pid at once (as soon as the
 * runtime has told the pid, when asked earlier) and lets go of the stream.
 */
export class StreamedCommand {
  /** Settles when it ended; rejects (a SandboxError) when it could not be started or its stream failed. */
  readonly ended: Promise<CommandEnd>
  private pid: number | undefined
  private killRequested = false
  private readonly abort = new AbortController()

  constructor(
    private readonly session: CommandSession,
    line: CommandLine,
    output: { stdout(bytes: Uint8Array): void; stderr(bytes: Uint8Array): void },
  ) {
    this.ended = this.run(line, output)
    // A caller that only kills need not watch it end.
    this.ended.catch(() => {})
  }

  /** Its pid, once the runtime started it. */
  get processId(): number | undefined {
    return this.pid
  }

  /** Ends it now: SIGKILL to its pid (a new query, Escape, the cap reached). */
  kill(): void {
    if (this.killRequested) return
    this.killRequested = true
    if (this.pid !== undefined) this.signal(this.pid)
  }

  private signal(pid: number): void {
    // The stream goes once the signal is sent, not before: a stream closed first may leave the process to run.
    void this.session.processes
      .signal(pid, 'SIGKILL')
      .catch(() => false)
      .finally(() => this.abort.abort())
  }

  /** A stream lost before the process's end leaves it running, talking to nobody. */
  private endOrphan(): void {
    if (this.pid !== undefined && !this.killRequested)
      void this.session.processes.signal(this.pid, 'SIGKILL').catch(() => false)
  }

  private async run(
    line: CommandLine,
    output: { stdout(bytes: Uint8Array): void; stderr(bytes: Uint8Array): void },
  ): Promise<CommandEnd> {
    const endpoint = this.session.streamEndpoint()
    if (!endpoint) throw sandboxError(new Error('the sandbox is not connected'))
    let end: CommandEnd | undefined
    try {
      await readProcessStream(
        endpoint,
        {
          method: 'Start',
          message: {
            process: { cmd: '/bin/bash', args: loginExec(line), ...(line.cwd ? { cwd: line.cwd } : {}) },
            tag: line.tag,
            stdin: false,
          },
        },
        {
          headers: streamHeaders,
          signal: this.abort.signal,
          room: () => Promise.resolve(),
          onEvent: (event) => {
            const e = event.event
            if (e.case === 'start') {
              this.pid = e.value.pid
              if (this.killRequested) this.signal(e.value.pid)
            } else if (e.case === 'data' && !this.killRequested) {
              if (e.value.output.case === 'stdout') output.stdout(e.value.output.value)
              else if (e.value.output.case === 'stderr') output.stderr(e.value.output.value)
            } else if (e.case === 'end') {
              end = {
                exitCode: e.value.exited ? e.value.exitCode : undefined,
                status: e.value.error || e.value.status,
                killed: this.killRequested,
              }
            }
          },
        },
      )
    } catch (err) {
      if (!this.killRequested) {
        this.endOrphan()
        throw sandboxError(err)
      }
    }
    if (!end) this.endOrphan()
    return (
      end ?? {
        exitCode: undefined,
        status: this.killRequested ? 'killed' : 'its stream ended before the process did',
        killed: this.killRequested,
      }
    )
  }
}
