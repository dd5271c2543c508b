import { type ProcessStreamRequest, readProcessStream } from '../api/processStream'
import { streamHeaders } from '../api/runtimeTransport'
import type { ProcessEvent } from '../gen/process_pb'
import { createInputChannel } from './createInputChannel'
import type { InputChannel } from './inputChannel'
import type { SandboxSession } from './SandboxSession'
import { pidSelector } from './sandboxProcesses'

/** How a process without a terminal is started: a shell command, run by `bash -l -c`. */
export interface StdioProcessOptions {
  command: string
  tag: string
  cwd?: string
  envs?: Record<string, string>
  /**
   * Others speak to it too (a relay every page of the sandbox shares): a lost stream or a
   * dispose leaves it running, for the next page or the next connection.
   */
  shared?: boolean
}

/** What a StdioProcess tells its owner. */
export interface StdioProcessEvents {
  stdout(bytes: Uint8Array): void
  stderr(bytes: Uint8Array): void
  /**
   * It is gone for this page: it ended (its exit status, and whether a shell could not find the
   * command), or its stream was lost (the sandbox paused, the link dropped), after which the
   * process may still run in the sandbox and is killed.
   */
  ended(end: { status: string; exitCode: number | undefined; streamLost: boolean }): void
}

/**
 * A process started through the runtime's own API (Start, no PTY, a stdin pipe), spoken to over
 * its stdin and stdout as bytes: what a language server needs, on the local stack and on E2B
 * alike. Input goes as a terminal's does (StreamInput where the browser can stream a request
 * body, else SendInput, in order), to stdin. It is not reattached after a lost stream: a protocol
 * spoken over it (LSP) cannot resume a conversation half-way, so the owner starts another.
 */
export class StdioProcess {
  private pid: number | undefined
  private readonly abort = new AbortController()
  private readonly input: InputChannel
  private finished = false

  constructor(
    private readonly session: SandboxSession,
    private readonly options: StdioProcessOptions,
    private readonly events: StdioProcessEvents,
  ) {
    this.input = createInputChannel({
      label: `${options.tag} stdin`,
      // Others write to a shared process too: a write of ours never lands cut around theirs.
      wholeWrites: options.shared ?? false,
      sendInput: (data) => this.sendInput(data),
      onError: () => this.session.reportTrouble(),
      streamTarget: () => {
        const endpoint = this.session.endpoint
        return endpoint && this.pid !== undefined ? { ...endpoint, pid: this.pid, input: 'stdin' } : undefined
      },
    })
  }

  /** The process's pid once it started. */
  get processId(): number | undefined {
    return this.pid
  }

  /** Starts it; resolves with its pid once the runtime started it, rejects with the runtime's error. */
  start(): Promise<number> {
    return this.read({
      method: 'Start',
      message: {
        process: {
          cmd: '/bin/bash',
          args: ['-l', '-c', this.options.command],
          envs: this.options.envs ?? {},
          ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
        },
        tag: this.options.tag,
        stdin: true,
      },
    })
  }

  /** Speaks to one that runs already (Connect): its output from now on, its stdin shared. */
  attach(pid: number): Promise<number> {
    return this.read({ method: 'Connect', message: { process: pidSelector(pid) } })
  }

  private read(request: ProcessStreamRequest): Promise<number> {
    const endpoint = this.session.streamEndpoint()
    if (!endpoint) return Promise.reject(new Error('the sandbox is not connected'))
    return new Promise<number>((resolve, reject) => {
      const onEvent = (event: ProcessEvent) => {
        const e = event.event
        if (e.case === 'start') {
          this.pid = e.value.pid
          this.input.retry()
          resolve(e.value.pid)
        } else if (e.case === 'data') {
          const output = e.value.output
          if (output.case === 'stdout') this.events.stdout(output.value)
          else if (output.case === 'stderr') this.events.stderr(output.value)
        } else if (e.case === 'end') {
          this.finish({ status: e.value.status, exitCode: e.value.exitCode, streamLost: false })
        }
      }
      readProcessStream(endpoint, request, {
        headers: streamHeaders,
        signal: this.abort.signal,
        onEvent,
        room: () => Promise.resolve(),
      }).then(
        () => this.finish({ status: 'the stream ended', exitCode: undefined, streamLost: true }),
        (err: unknown) => {
          reject(err)
          this.finish({
            status: err instanceof Error ? err.message : String(err),
            exitCode: undefined,
            streamLost: true,
          })
        },
      )
    })
  }

  /** Bytes for its stdin, in order. */
  write(bytes: Uint8Array): void {
    if (!this.finished) this.input.push(bytes)
  }

  /**
   * Bytes for its stdin that must arrive even if the page closes now: one SendInput of their own
   * that outlives the page, not queued behind earlier writes (they may arrive after it).
   */
  writeLast(bytes: Uint8Array): void {
    const client = this.session.lastWords
    if (this.finished || !client || this.pid === undefined) return
    void client
      .sendInput({ process: pidSelector(this.pid), input: { input: { case: 'stdin', value: bytes } } })
      .catch(() => {})
  }

  /** Ends it (SIGKILL) and lets go of its stream. */
  async kill(): Promise<void> {
    const pid = this.pid
    this.dispose()
    if (pid !== undefined) await this.session.processes.signal(pid, 'SIGKILL').catch(() => false)
  }

  dispose(): void {
    this.finished = true
    this.abort.abort()
    this.input.dispose()
  }

  private finish(end: { status: string; exitCode: number | undefined; streamLost: boolean }): void {
    if (this.finished) return
    this.finished = true
    this.input.dispose()
    this.events.ended(end)
    // A lost stream leaves the process running, talking to nobody (unless others share it).
    if (end.streamLost && !this.options.shared && this.pid !== undefined)
      void this.session.processes.signal(this.pid, 'SIGKILL').catch(() => false)
  }

  private async sendInput(data: Uint8Array): Promise<void> {
    const clients = this.session.clients
    if (!clients || this.pid === undefined) throw new Error('the process is not started')
    await clients.process.sendInput({
      process: pidSelector(this.pid),
      input: { input: { case: 'stdin', value: data } },
    })
  }
}
