// The terminal bench page: the IDE's own terminal stack (SandboxSession → TerminalConnection →
// OutputWriter → TerminalInstance's xterm), built by Vite like the IDE and served by the platform
// on the IDE's origin, with one thin probe: each terminal's write callbacks (the moment xterm has
// parsed a chunk) are counted and their last bytes searched for markers. terminal.bench.ts drives
// it through `window.terminalBench`; keys come from Playwright as real keydowns.
import '@xterm/xterm/css/xterm.css'
import { create } from '@bufbuild/protobuf'
import { createClient } from '@connectrpc/connect'
import { runtimeTransport } from '../../src/api/runtimeTransport'
import { TerminalInstance } from '../../src/features/terminal/TerminalInstance'
import { Process, ProcessSelectorSchema, Signal } from '../../src/gen/process_pb'
import { SandboxSession } from '../../src/sandbox/SandboxSession'
import { benchPrompt } from './benchPrompt'

/** How much of the most recent output a marker is searched in; markers come at the end of output. */
const tailChars = 4096

/** Time from a start (a keydown, or the call) to a marker parsed, and the bytes parsed meanwhile. */
export interface Timing {
  ms: number
  bytes: number
}

interface Watch {
  marker: string
  /** Set by the next keydown, or at once when the watch does not wait for a key. */
  t0: number | undefined
  startParsed: number
  resolve: (timing: Timing) => void
}

const decoder = new TextDecoder()
const modifierKeys = new Set(['Control', 'Shift', 'Alt', 'Meta'])

/** Counts what xterm has parsed in one terminal and settles a watch when its marker is parsed. */
class Probe {
  parsed = 0
  tail = ''
  watch: Watch | undefined
  settled: Promise<Timing> | undefined

  chunk(data: string | Uint8Array): void {
    this.parsed += data.length
    const last =
      typeof data === 'string'
        ? data.slice(-tailChars)
        : decoder.decode(data.subarray(Math.max(0, data.length - tailChars)))
    this.tail = (this.tail + last).slice(-tailChars)
    const watch = this.watch
    if (watch?.t0 !== undefined && this.tail.includes(watch.marker)) {
      this.watch = undefined
      watch.resolve({ ms: performance.now() - watch.t0, bytes: this.parsed - watch.startParsed })
    }
  }

  /** Watches for `marker` from the next keydown (or from now), forgetting what came before. */
  arm(marker: string, fromKeydown: boolean): void {
    this.tail = ''
    this.settled = new Promise((resolve) => {
      this.watch = {
        marker,
        t0: fromKeydown ? undefined : performance.now(),
        startParsed: this.parsed,
        resolve,
      }
    })
  }

  keydown(timeStamp: number): void {
    if (!this.watch || this.watch.t0 !== undefined) return
    this.watch.t0 = timeStamp
    this.watch.startParsed = this.parsed
    this.tail = ''
  }
}

interface BenchTerminal {
  instance: TerminalInstance
  probe: Probe
  /** xterm's own write, for the no-network limit. */
  rawWrite: (data: Uint8Array, callback: () => void) => void
}

/** Input calls the page made, by method: which way keystrokes travelled (StreamInput or SendInput). */
const inputCalls = { StreamInput: 0, SendInput: 0 }
const pageFetch = window.fetch.bind(window)
window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const method = String(input instanceof Request ? input.url : input).match(/\/process\.Process\/(\w+)$/)?.[1]
  if (method === 'StreamInput' || method === 'SendInput') inputCalls[method]++
  return pageFetch(input, init)
}

const host = document.getElementById('host') as HTMLElement
const terminals = new Map<number, BenchTerminal>()
let session: SandboxSession | undefined
let shown: BenchTerminal | undefined
let nextId = 1
let limitBytes: Uint8Array | undefined

function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

function terminal(id: number): BenchTerminal {
  const t = terminals.get(id)
  if (!t) throw new Error(`no bench terminal ${id}`)
  return t
}

function settledOf(t: BenchTerminal): Promise<Timing> {
  if (!t.probe.settled) throw new Error('nothing armed')
  return t.probe.settled
}

// Capture phase, before xterm's own handler; event.timeStamp is when the key event was made.
window.addEventListener(
  'keydown',
  (event) => {
    if (!modifierKeys.has(event.key)) shown?.probe.keydown(event.timeStamp)
  },
  true,
)

const bench = {
  /** Opens the sandbox as the IDE does (its /ide/api on this origin) and waits until it runs. */
  async connect(sandboxId: string, timeoutMs: number): Promise<void> {
    const s = new SandboxSession({ source: 'local', sandboxId })
    session = s
    const running = new Promise<void>((resolve, reject) => {
      const check = () => {
        const state = s.getSnapshot().state
        if (state.kind === 'running') resolve()
        else if (state.kind === 'gone' || state.kind === 'unreachable')
          reject(new Error(`sandbox ${state.kind}: ${state.reason}`))
      }
      s.subscribe(check)
      check()
    })
    s.start()
    await within(timeoutMs, 'connecting to the sandbox', running)
  },

  /** A new terminal (a new login shell) shown in the host, with the bench prompt; returns its id. */
  async open(timeoutMs: number): Promise<{ id: number; cols: number; rows: number; renderer: string }> {
    if (!session) throw new Error('not connected')
    const id = nextId++
    const instance = new TerminalInstance(
      session,
      { id: `bench-${id}`, tag: `bench-terminal:${id}`, title: `Bench ${id}` },
      { theme: 'dark' },
    )
    const probe = new Probe()
    const term = instance.term
    const rawWrite = term.write.bind(term)
    // OutputWriter calls `term.write(data, parsed)` through the instance: this wraps exactly that.
    term.write = (data: string | Uint8Array, callback?: () => void) =>
      rawWrite(data, () => {
        probe.chunk(data)
        callback?.()
      })
    const t: BenchTerminal = { instance, probe, rawWrite }
    terminals.set(id, t)
    bench.show(id)
    probe.arm(benchPrompt, false)
    const prompt = settledOf(t)
    await within(timeoutMs, 'the shell to start', waitForPid(instance))
    // The leading space keeps it out of the shell's history; `\$` is `$` for a user.
    term.input(` PS1='bench-ready\\$ '\r`)
    await within(timeoutMs, 'the bench prompt', prompt)
    // Where the IDE marks its renderer (WebGL while visible, else DOM); unmarked means DOM.
    return { id, cols: term.cols, rows: term.rows, renderer: instance.element.dataset.renderer ?? 'dom' }
  },

  /** Shows terminal `id` in the host (the one shown before is detached, as a hidden tab is) and focuses it. */
  show(id: number): void {
    const t = terminal(id)
    if (shown && shown !== t) shown.instance.detach()
    shown = t
    t.instance.attachTo(host)
    t.instance.focus()
  },

  /** Types text as xterm's onData would send it (keystrokes that are not being timed). */
  type(id: number, text: string): void {
    terminal(id).instance.term.input(text)
  },

  /** Watches for `marker` in terminal `id`, timed from the next keydown or from now. */
  arm(id: number, marker: string, fromKeydown: boolean): void {
    terminal(id).probe.arm(marker, fromKeydown)
  },

  /** The armed watch's timing, once its marker is parsed. */
  result(id: number, timeoutMs: number): Promise<Timing> {
    return within(timeoutMs, 'waiting for the marker', settledOf(terminal(id)))
  },

  /** Resolves once `bytes` more have been parsed in terminal `id`. */
  async waitParsed(id: number, bytes: number, timeoutMs: number): Promise<void> {
    const { probe } = terminal(id)
    const target = probe.parsed + bytes
    const deadline = performance.now() + timeoutMs
    while (probe.parsed < target) {
      if (performance.now() > deadline) throw new Error(`fewer than ${bytes} bytes parsed in ${timeoutMs} ms`)
      await new Promise((r) => setTimeout(r, 5))
    }
  },

  /**
   * The limit: what `yes "$line" | head -c $size` puts through a PTY (each \n as \r\n), written
   * straight into the same xterm in 64 KiB chunks, no network; timed to the last chunk parsed.
   */
  async limit(id: number, line: string, size: number, timeoutMs: number): Promise<Timing> {
    const t = terminal(id)
    limitBytes ??= ptyBytes(line, size)
    const bytes = limitBytes
    const chunk = 64 * 1024
    const done = new Promise<Timing>((resolve) => {
      const t0 = performance.now()
      for (let at = 0; at < bytes.length; at += chunk) {
        const last = at + chunk >= bytes.length
        t.rawWrite(bytes.subarray(at, at + chunk), () => {
          if (last) resolve({ ms: performance.now() - t0, bytes: bytes.length })
        })
      }
    })
    return within(timeoutMs, 'the no-network write', done)
  },

  /** How many StreamInput and SendInput calls the page has made so far. */
  inputCalls(): typeof inputCalls {
    return { ...inputCalls }
  },

  /**
   * One-way output latency: a shell prints its clock (`date +%s%N`) every 20 ms on a Start
   * stream over the terminals' binary transport, and each event's arrival is compared with it
   * (the page's clock); returns the delays in ms.
   */
  async outputDelays(runtimeUrl: string, accessToken: string): Promise<number[]> {
    const client = createClient(Process, runtimeTransport(runtimeUrl, accessToken, { binary: true }))
    const script = 'for i in $(seq 150); do sleep 0.02; date +T%s%N; done'
    const delays: number[] = []
    for await (const { event } of client.start({ process: { cmd: '/bin/bash', args: ['-c', script] } })) {
      const now = performance.timeOrigin + performance.now()
      const data = event?.event.case === 'data' ? event.event.value.output : undefined
      if (data?.case !== 'stdout') continue
      for (const m of decoder.decode(data.value).matchAll(/T(\d+)/g)) delays.push(now - Number(m[1]) / 1e6)
    }
    return delays
  },

  /** Ends terminal `id`'s shell (as closing its tab does) and disposes of the terminal. */
  async close(id: number): Promise<void> {
    const t = terminal(id)
    const pid = t.instance.pid
    if (shown === t) shown = undefined
    t.instance.dispose()
    terminals.delete(id)
    if (pid !== undefined && session?.clients) {
      await session.clients.process.sendSignal({
        process: create(ProcessSelectorSchema, { selector: { case: 'pid', value: pid } }),
        signal: Signal.SIGKILL,
      })
    }
  },
}

async function waitForPid(instance: TerminalInstance): Promise<void> {
  while (instance.pid === undefined) {
    const status = instance.getSnapshot().status
    if (status.kind === 'failed' || status.kind === 'exited')
      throw new Error(`the shell did not start: ${JSON.stringify(status)}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** The first `size` bytes of `line\n` repeated (as `head -c`), each \n as \r\n (as a PTY sends it). */
function ptyBytes(line: string, size: number): Uint8Array {
  const unit = new TextEncoder().encode(`${line}\n`)
  const out = new Uint8Array(size + Math.floor(size / unit.length))
  let at = 0
  for (let i = 0; i < size; i++) {
    const byte = unit[i % unit.length] as number
    if (byte === 10) out[at++] = 13
    out[at++] = byte
  }
  return out
}

export type TerminalBench = typeof bench

declare global {
  interface Window {
    terminalBench: TerminalBench
  }
}

window.terminalBench = bench
