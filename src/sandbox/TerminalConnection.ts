import { Code, ConnectError } from '@connectrpc/connect'
import { acknowledgeOutput } from '../api/outputAck'
import { readProcessStream } from '../api/processStream'
import { streamHeaders } from '../api/runtimeTransport'
import {
  outputFlushHeader,
  outputStreamHeader,
  outputWindowHeader,
  replayEndHeader,
  replayFromHeader,
  replayStartHeader,
} from '../contract/runtimeExtensions'
import type { ProcessEvent } from '../gen/process_pb'
import { createInputChannel } from './createInputChannel'
import type { InputChannel } from './inputChannel'
import { OutputAcks } from './outputAcks'
import { OutputWindow, type OutputWindowPolicy } from './outputWindow'
import type { SandboxSession } from './SandboxSession'
import { pidSelector } from './sandboxProcesses'

/** Where a terminal's process stands. */
export type TerminalStatus =
  | { kind: 'starting' }
  | { kind: 'attached'; pid: number }
  /** The stream dropped; the terminal reattaches once the sandbox runs again. */
  | { kind: 'detached'; pid: number | undefined; reason: string }
  | { kind: 'exited'; pid: number | undefined; description: string; exitCode: number | null }
  | { kind: 'failed'; reason: string }

/** Where a terminal's bytes and notices go (the xterm view). */
export interface TerminalSink {
  /**
   * Output, ending at absolute offset `end` in the process's output; `parsed` runs once the
   * terminal has processed it.
   */
  write(data: Uint8Array, end: number, parsed?: () => void): void
  /** Drops output not yet shown that comes before `offset`: a Ctrl-C flushed it. */
  skip(offset: number): void
  /** Resolves when the terminal can take more output; reading waits for it (backpressure). */
  room(): Promise<void>
  /** A line from the IDE itself, such as a divider where output was lost. */
  notice(text: string): void
  status(status: TerminalStatus): void
}

export interface TerminalOptions {
  cols: number
  rows: number
  /** Tag given at Start so the terminal can be found again with List. */
  tag: string
  /** Attach to this running process instead of starting a shell (after a reload, or from the process list). */
  existingPid?: number
  /** Where the shell starts (the user's home when absent). */
  cwd?: string
  /** Runs this shell command (`bash -lc`) instead of an interactive login shell. */
  command?: string
  /** What sizes the output window; one that follows the link (`OutputWindow`) when absent. */
  outputWindow?: OutputWindowPolicy
}

/** Whether the runtime replayed held output on attach (our runtime) or has no replay (E2B's envd). */
export type ReplaySupport = 'replayed' | 'none'

const resizeDebounceMs = 80

function shellEnv(): Record<string, string> {
  return { TERM: 'xterm-256color', COLORTERM: 'truecolor', LANG: 'C.UTF-8' }
}

/**
 * One terminal: a login shell in a PTY, started with Start (no Connect-Timeout-Ms: on Start it
 * would be the process's lifetime), output as bytes into the sink, keystrokes through an input
 * channel (StreamInput where the browser can stream, else SendInput), resizes by a debounced
 * Update. When its stream drops it waits for the sandbox to run again and reattaches with
 * Connect, replaying what it missed from its byte offset; a gap the runtime no longer holds is
 * shown, never hidden.
 */
export class TerminalConnection {
  private pid: number | undefined
  /** The process's pid, once known. */
  get processId(): number | undefined {
    return this.pid
  }

  /** Bytes of output received since the process started. */
  private offset = 0
  /** Output before this offset was flushed by a Ctrl-C: what of it has not been shown, never is. */
  private skipTo = 0
  private readonly abort = new AbortController()
  private readonly input: InputChannel
  private resizeTimer: ReturnType<typeof setTimeout> | undefined
  private size: { cols: number; rows: number }
  private unsubscribe: (() => void) | undefined
  private streaming = false
  /** Acknowledgements for the current stream, when its runtime granted a window. */
  private acks: OutputAcks | undefined
  /**
   * Output the runtime may have sent and the terminal not yet parsed, where the runtime supports
   * acknowledged output (ours): it bounds everything in flight (sockets, the browser's own
   * buffers, xterm's queue). A Ctrl-C skips what of it is not shown yet, but what is in flight
   * still crosses the link first, so its size follows the link (see OutputWindow), and outlives
   * a stream, as the link does.
   */
  private readonly window: OutputWindowPolicy
  private ended = false
  private wanted = false

  constructor(
    private readonly session: SandboxSession,
    private readonly sink: TerminalSink,
    private readonly options: TerminalOptions,
  ) {
    this.size = { cols: options.cols, rows: options.rows }
    this.window = options.outputWindow ?? new OutputWindow()
    this.pid = options.existingPid
    this.input = createInputChannel({
      sendInput: (data) => this.sendInput(data),
      onError: () => this.session.reportTrouble(),
      streamTarget: () => {
        const endpoint = this.session.endpoint
        return endpoint && this.pid !== undefined ? { ...endpoint, pid: this.pid } : undefined
      },
    })
    this.unsubscribe = session.subscribe(() => this.onSessionChange())
  }

  /**
   * Called once when an attach learns whether the runtime replays held output, and if it does,
   * where the replay starts and where the past ends and live output begins (absolute offsets).
   */
  onReplay: ((support: ReplaySupport, replay?: { start: number; end: number }) => void) | undefined

  /** Starts the shell (or attaches to `existingPid`) as soon as the sandbox runs. */
  start(): void {
    this.wanted = true
    this.onSessionChange()
  }

  /** Keystrokes and pastes, in order. */
  write(data: Uint8Array): void {
    if (this.ended) return
    this.session.activity.typed(data.includes(0x0d))
    this.input.push(data)
    // By StreamInput a Ctrl-C has no answer; acknowledgements bring where it flushed the output.
    if (data.includes(0x03)) this.acks?.hurry()
  }

  /** The visible grid changed; the PTY follows shortly after. */
  resize(cols: number, rows: number): void {
    if (cols === this.size.cols && rows === this.size.rows) return
    this.size = { cols, rows }
    clearTimeout(this.resizeTimer)
    this.resizeTimer = setTimeout(() => void this.sendResize(), resizeDebounceMs)
  }

  dispose(): void {
    this.ended = true
    this.acks?.dispose()
    this.abort.abort()
    this.input.dispose()
    clearTimeout(this.resizeTimer)
    this.unsubscribe?.()
  }

  private selector() {
    return pidSelector(this.pid ?? 0)
  }

  private async sendInput(data: Uint8Array): Promise<void> {
    const clients = this.session.clients
    if (!clients || this.pid === undefined) throw new Error('the terminal is not attached')
    await clients.process.sendInput(
      { process: this.selector(), input: { input: { case: 'pty', value: data } } },
      {
        // Our runtime says where a Ctrl-C flushed the output (see acknowledged output).
        onHeader: (headers) => {
          const flushedTo = headers.get(outputFlushHeader)
          if (flushedTo !== null) this.skipBefore(Number(flushedTo))
        },
      },
    )
  }

  private async sendResize(): Promise<void> {
    const clients = this.session.clients
    if (!clients || this.pid === undefined || this.ended) return
    try {
      await clients.process.update({ process: this.selector(), pty: { size: this.size } })
    } catch {
      // Resent on reattach; a resize is never worth an error of its own.
    }
  }

  /** (Re)attaches whenever the sandbox runs and no stream is open: Start the first time, Connect after. */
  private onSessionChange(): void {
    const state = this.session.getSnapshot().state
    if (state.kind !== 'running' || !this.wanted || this.streaming || this.ended) return
    void this.stream(this.pid !== undefined)
  }

  private async stream(reattach: boolean): Promise<void> {
    const endpoint = this.session.streamEndpoint()
    if (!endpoint || this.streaming || this.ended) return
    this.streaming = true
    let replayStart: number | undefined
    const headers = { ...streamHeaders, [outputWindowHeader]: String(this.window.wanted) }
    const openedAt = performance.now()
    const events = {
      signal: this.abort.signal,
      onEvent: (event: ProcessEvent) => {
        this.handle(event, replayStart)
        replayStart = undefined
      },
      room: () => this.sink.room(),
    }
    try {
      if (reattach) {
        await readProcessStream(
          endpoint,
          { method: 'Connect', message: { process: this.selector() } },
          {
            ...events,
            headers: { ...headers, [replayFromHeader]: String(this.offset) },
            onHeaders: (headers) => {
              const start = headers.get(replayStartHeader)
              replayStart = start === null ? undefined : Number(start)
              const end = Number(headers.get(replayEndHeader) ?? Number.NaN)
              if (replayStart === undefined) this.onReplay?.('none')
              // A runtime that does not say where the past ends: all it sent so far.
              else
                this.onReplay?.('replayed', {
                  start: Math.max(this.offset, replayStart),
                  end: Number.isSafeInteger(end) ? end : this.offset,
                })
              this.onReplay = undefined
              this.acknowledgeFrom(headers, replayStart ?? this.offset, openedAt)
            },
          },
        )
      } else {
        this.sink.status({ kind: 'starting' })
        await readProcessStream(
          endpoint,
          {
            method: 'Start',
            message: {
              process: {
                cmd: '/bin/bash',
                args: this.options.command ? ['-l', '-c', this.options.command] : ['-l'],
                envs: shellEnv(),
                ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
              },
              pty: { size: this.size },
              tag: this.options.tag,
            },
          },
          { ...events, headers, onHeaders: (headers) => this.acknowledgeFrom(headers, 0, openedAt) },
        )
      }
    } catch (err) {
      if (this.abort.signal.aborted) return
      if (err instanceof ConnectError && err.code === Code.NotFound) {
        this.finish('the process no longer exists (the sandbox restarted)')
        return
      }
      const reason = err instanceof Error ? err.message : String(err)
      this.sink.status(
        this.pid === undefined ? { kind: 'failed', reason } : { kind: 'detached', pid: this.pid, reason },
      )
      this.session.reportTrouble()
    } finally {
      this.streaming = false
      this.acks?.dispose()
      this.acks = undefined
    }
    // The stream may have dropped while the sandbox still runs (a proxy hiccup): try once more.
    if (!this.ended && this.pid !== undefined && this.session.getSnapshot().state.kind === 'running') {
      setTimeout(() => this.onSessionChange(), 1000)
    }
  }

  private handle(event: ProcessEvent, replayStart: number | undefined): void {
    const e = event.event
    if (e.case === 'start') {
      this.pid = e.value.pid
      this.sink.status({ kind: 'attached', pid: e.value.pid })
      if (replayStart !== undefined && replayStart > this.offset) {
        this.sink.notice(`output lost while disconnected: ${replayStart - this.offset} bytes`)
      }
      if (replayStart !== undefined) this.offset = Math.max(this.offset, replayStart)
      this.input.retry()
      void this.sendResize()
    } else if (e.case === 'data') {
      this.session.activity.note()
      const bytes = e.value.output.value
      if (bytes) this.output(bytes)
    } else if (e.case === 'end') {
      // `error` says why where the runtime knows more than the status (out of memory).
      this.finish(e.value.error || e.value.status || `exit code ${e.value.exitCode}`, e.value.exitCode)
    }
  }

  private output(bytes: Uint8Array): void {
    const start = this.offset
    this.offset += bytes.length
    const end = this.offset
    const acks = this.acks
    if (end <= this.skipTo) {
      acks?.parsed(end)
      return
    }
    const shown = start < this.skipTo ? bytes.subarray(this.skipTo - start) : bytes
    this.sink.write(shown, end, acks && (() => acks.parsed(end)))
  }

  /** A Ctrl-C flushed the output before `offset`: skip what of it is still on its way in. */
  private skipBefore(offset: number): void {
    if (offset <= this.skipTo) return
    this.skipTo = offset
    this.sink.skip(offset)
  }

  /**
   * A runtime that granted an output window (ours) gets acknowledgements of parsed output; envd
   * grants none. The stream's own opening, asked at `openedAt`, is one to three round trips (a
   * connection's set-up, the process's start) before any of its output: the window learns from
   * it an upper bound of the link's delay, which a flood's acknowledgements, whose answers wait
   * behind the flood queued on the link, overstate many times over.
   */
  private acknowledgeFrom(headers: Headers, start: number, openedAt: number): void {
    const stream = headers.get(outputStreamHeader)
    const window = Number(headers.get(outputWindowHeader))
    const endpoint = this.session.endpoint
    if (!stream || !(window > 0) || !endpoint) return
    this.acks = new OutputAcks(
      (offset, wanted) => acknowledgeOutput(endpoint, stream, offset, wanted),
      window,
      this.window,
      start,
      () => this.session.reportTrouble(),
      (flushedTo) => this.skipBefore(flushedTo),
    )
    this.window.roundTrip(performance.now() - openedAt)
  }

  private finish(description: string, exitCode: number | null = null): void {
    this.ended = true
    this.input.clear()
    this.sink.status({ kind: 'exited', pid: this.pid, description, exitCode })
  }
}
