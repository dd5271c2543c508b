// One student's terminal, as the IDE holds it: a login shell in a PTY (Start with an output
// window, acknowledged), keys sent by one StreamInput call per burst of typing, and after a pause
// the same shell again by Connect, replayed from the last byte seen. Each key must come back
// echoed, in order, before the next one goes; one that does not within ten seconds is lost.
import type { MessageInitShape } from '@bufbuild/protobuf'
import { Code, ConnectError } from '@connectrpc/connect'
import {
  outputAckPath,
  outputStreamHeader,
  outputWindowHeader,
  replayFromHeader,
  replayStartHeader,
} from '../../src/contract/runtimeExtensions'
import type { ConnectResponse, StartResponse, StreamInputRequestSchema } from '../../src/gen/process_pb'
import type { StudentRuntime } from './studentRuntime'

/** A key not echoed by then counts as lost. */
const lostAfterMs = 10_000
/** The window asked for, as the IDE asks for one; a line of typing never comes near it. */
const outputWindow = 1024 * 1024
const shellEnv = { TERM: 'xterm-256color', COLORTERM: 'truecolor', LANG: 'C.UTF-8' }
/** Escape sequences and control characters a shell may print around an echo (colours, bells). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
const noise = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|[\x00-\x1f]/g

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How a line of typing went. */
export interface TypedLine {
  keys: number
  /** Keys whose echo never came. */
  lost: number
  /** Keys whose echo came after another key's text: typed in one order, shown in another. */
  misordered: number
}

/** An async iterable fed from outside: a StreamInput call's messages, sent as they are pushed. */
function messageQueue<T>() {
  const items: T[] = []
  let wake: (() => void) | undefined
  let done = false
  return {
    push(item: T) {
      items.push(item)
      wake?.()
    },
    end() {
      done = true
      wake?.()
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<T> {
      for (;;) {
        const next = items.shift()
        if (next !== undefined) yield next
        else if (done) return
        else await new Promise<void>((resolve) => (wake = resolve))
      }
    },
  }
}

export class SoakTerminal {
  pid = 0
  /** Output not yet looked at: consumed as echoes are found, so it stays small all day. */
  private text = ''
  /** PTY bytes received so far: the offset replays and acknowledgements count in. */
  private received = 0
  private acked = 0
  private stream: string | undefined
  private abort = new AbortController()
  private waiting: (() => void)[] = []
  private decoder = new TextDecoder()
  /** Why the output stream ended, when it did. */
  private ended: unknown

  constructor(private readonly rt: StudentRuntime) {}

  /** Starts a login shell in a PTY, as the IDE's terminal does, and waits for its first prompt. */
  async open(): Promise<void> {
    const events = this.rt.proc.start(
      {
        process: { cmd: '/bin/bash', args: ['-l'], envs: shellEnv },
        pty: { size: { cols: 100, rows: 30 } },
        tag: 'soak-terminal',
      },
      {
        signal: this.abort.signal,
        headers: { [outputWindowHeader]: String(outputWindow) },
        onHeader: this.onHeader,
      },
    )
    this.follow(events)
    await this.settle()
  }

  /** After a pause (the stack ended every call in flight): the same shell by Connect, from the last byte seen. */
  async reattach(): Promise<void> {
    this.abort.abort()
    this.abort = new AbortController()
    this.decoder = new TextDecoder()
    const events = this.rt.proc.connect(
      { process: { selector: { case: 'pid', value: this.pid } } },
      {
        signal: this.abort.signal,
        headers: { [replayFromHeader]: String(this.received), [outputWindowHeader]: String(outputWindow) },
        onHeader: (headers) => {
          this.onHeader(headers)
          // Later than asked: the runtime's log no longer held those bytes.
          const start = Number(headers.get(replayStartHeader) ?? this.received)
          if (start > this.received) this.received = start
        },
      },
    )
    this.follow(events)
    await this.settle()
  }

  /**
   * Types `line` a key at a time (`gap()` ms apart, by one StreamInput call), each key waiting for
   * its echo, then Enter, and waits for what the command prints: `expect`.
   */
  async typeLine(line: string, expect: string, gap: () => number): Promise<TypedLine> {
    this.text = ''
    const input = messageQueue<MessageInitShape<typeof StreamInputRequestSchema>>()
    const call = this.rt.proc.streamInput(input)
    input.push({
      event: { case: 'start', value: { process: { selector: { case: 'pid', value: this.pid } } } },
    })
    const send = (key: string) =>
      input.push({
        event: {
          case: 'data',
          value: { input: { input: { case: 'pty', value: new TextEncoder().encode(key) } } },
        },
      })
    const typed: TypedLine = { keys: 0, lost: 0, misordered: 0 }
    try {
      for (const key of line) {
        const sentAt = performance.now()
        send(key)
        typed.keys++
        const echo = await this.echoOf(key)
        if (echo === 'lost') typed.lost++
        if (echo === 'misordered') typed.misordered++
        await sleep(Math.max(0, gap() - (performance.now() - sentAt)))
      }
      send('\r')
    } finally {
      input.end()
    }
    await call
    // The typed line's echo is consumed already: what comes now is Enter's newline, then the output.
    if (!(await this.printedWithin(`${expect}\r\n`, lostAfterMs)))
      throw new Error(
        `the shell did not print '${expect}' within ${lostAfterMs / 1000} s of Enter (it printed ${JSON.stringify(this.text.slice(-120))})`,
      )
    await this.acknowledge()
    return typed
  }

  /** Ends the output stream (the shell goes on in the sandbox until the sandbox goes). */
  close(): void {
    this.abort.abort()
  }

  /** Whether the output stream has ended (the stack cuts it on a pause). */
  get streaming(): boolean {
    return this.ended === undefined
  }

  private readonly onHeader = (headers: Headers) => {
    this.stream = headers.get(outputStreamHeader) ?? undefined
  }

  private follow(events: AsyncIterable<StartResponse | ConnectResponse>): void {
    this.ended = undefined
    const signal = this.abort.signal
    void (async () => {
      try {
        for await (const { event } of events) {
          const kind = event?.event
          if (kind?.case === 'start') this.pid = kind.value.pid
          else if (kind?.case === 'data' && kind.value.output.case === 'pty') {
            const bytes = kind.value.output.value
            this.received += bytes.length
            this.text += this.decoder.decode(bytes, { stream: true })
          } else if (kind?.case === 'end') throw new Error(`the shell ended: ${kind.value.status}`)
          this.wake()
        }
        if (!signal.aborted) this.ended = new Error('the output stream ended')
      } catch (err) {
        if (!signal.aborted) this.ended = err
      } finally {
        if (signal.aborted) this.ended ??= new ConnectError('closed', Code.Canceled)
        this.wake()
      }
    })()
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve()
  }

  private printed(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      this.waiting.push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }

  /** Waits for the pid and the shell's first words, then until it has been quiet for a moment. */
  private async settle(): Promise<void> {
    const deadline = performance.now() + lostAfterMs
    while ((this.pid === 0 || this.received === 0) && this.ended === undefined) {
      if (performance.now() > deadline) throw new Error('the terminal printed nothing within 10 s')
      await this.printed(deadline - performance.now())
    }
    if (this.ended !== undefined) throw this.ended
    for (let before = -1; before !== this.received; ) {
      before = this.received
      await sleep(300)
    }
  }

  /** Where `key`'s echo is: found next (with only escapes and controls before it), later, or never. */
  private async echoOf(key: string): Promise<'ok' | 'lost' | 'misordered'> {
    const deadline = performance.now() + lostAfterMs
    for (;;) {
      const at = this.text.indexOf(key)
      if (at >= 0) {
        const before = this.text.slice(0, at).replace(noise, '')
        this.text = this.text.slice(at + key.length)
        return before === '' ? 'ok' : 'misordered'
      }
      const left = deadline - performance.now()
      if (left <= 0 || this.ended !== undefined) return 'lost'
      await this.printed(left)
    }
  }

  private async printedWithin(wanted: string, ms: number): Promise<boolean> {
    const deadline = performance.now() + ms
    for (;;) {
      const at = this.text.indexOf(wanted)
      if (at >= 0) {
        this.text = this.text.slice(at + wanted.length)
        return true
      }
      const left = deadline - performance.now()
      if (left <= 0 || this.ended !== undefined) return false
      await this.printed(left)
    }
  }

  /** Says what has been read, as the IDE does once xterm has parsed it. */
  private async acknowledge(): Promise<void> {
    if (!this.stream || this.received === this.acked) return
    const offset = this.received
    await this.rt.post(`${outputAckPath}?${new URLSearchParams({ stream: this.stream })}`, String(offset))
    this.acked = offset
  }
}
