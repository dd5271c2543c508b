// The terminal bench page: the IDE's own terminal stack (SandboxSession → TerminalConnection →
// OutputWriter → TerminalInstance's xterm), built by Vite like the IDE and served by the platform
// on the IDE's origin, with one thin probe: each terminal's write callbacks (the moment xterm has
// parsed a chunk) are counted and their last bytes searched for markers. terminal.bench.ts drives
// it through `window.terminalBench`; keys come as real keydowns over the DevTools protocol
// (bench/bareChromium.ts, with no Playwright attached to add to each request). Beside the IDE's
// terminals it opens baselines: a bare xterm whose keys a trivial server echoes (baselineServer.ts).
import '@xterm/xterm/css/xterm.css'
import { create } from '@bufbuild/protobuf'
import { createClient } from '@connectrpc/connect'
import { Terminal } from '@xterm/xterm'
import { runtimeTransport } from '../../src/api/runtimeTransport'
import { signInFromAddress } from '../../src/app/signIn'
import { within } from '../../src/common/within'
import { OutputWriter } from '../../src/features/terminal/outputWriter'
import { TerminalInstance } from '../../src/features/terminal/TerminalInstance'
import { useTerminalSettings } from '../../src/features/terminal/terminalSettings'
import { Process, ProcessSelectorSchema, Signal } from '../../src/gen/process_pb'
import type { OutputWindowPolicy } from '../../src/sandbox/outputWindow'
import { SandboxSession } from '../../src/sandbox/SandboxSession'
import { benchPrompt } from './benchPrompt'
import { ptyBytes } from './ptyBytes'

/** How much of the most recent output a marker is searched in; markers come at the end of output. */
const tailChars = 4096

/** Time from a start (a keydown, or the call) to a marker parsed, and the bytes parsed meanwhile. */
export interface Timing {
  ms: number
  bytes: number
  /** When the timing started, on the epoch clock (a shell's `date +%s%N` compares with it). */
  startEpochMs: number
  /** The end of the output that settled it (the marker and what came just before). */
  tail: string
  /** From the `term.write` that carried the marker to its parse: xterm's own share. */
  parseMs: number
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

  chunk(data: string | Uint8Array, writtenAt: number): void {
    this.parsed += data.length
    const last =
      typeof data === 'string'
        ? data.slice(-tailChars)
        : decoder.decode(data.subarray(Math.max(0, data.length - tailChars)))
    this.tail = (this.tail + last).slice(-tailChars)
    const watch = this.watch
    if (watch?.t0 !== undefined && this.tail.includes(watch.marker)) {
      this.watch = undefined
      watch.resolve({
        ms: performance.now() - watch.t0,
        bytes: this.parsed - watch.startParsed,
        startEpochMs: performance.timeOrigin + watch.t0,
        tail: this.tail,
        parseMs: performance.now() - writtenAt,
      })
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

/** A terminal of the page: the IDE's (a TerminalInstance) or a baseline (a bare xterm). */
interface BenchTerminal {
  term: Terminal
  probe: Probe
  /** xterm's own write, for the no-network limit. */
  rawWrite: (data: Uint8Array, callback: () => void) => void
  /** Puts it in the host, focused. */
  show(): void
  /** Takes it out of the host, as a hidden tab. */
  hide(): void
  /** Ends it (the IDE's also ends its shell). */
  close(): Promise<void>
}

/** Wraps `term.write` so that every parsed write passes the probe; returns xterm's own write. */
function probeWrites(term: Terminal, probe: Probe): BenchTerminal['rawWrite'] {
  const rawWrite = term.write.bind(term)
  // OutputWriter calls `term.write(data, parsed)` through the instance: this wraps exactly that.
  term.write = (data: string | Uint8Array, callback?: () => void) => {
    const writtenAt = performance.now()
    rawWrite(data, () => {
      probe.chunk(data, writtenAt)
      callback?.()
    })
  }
  return rawWrite
}

/** Input calls the page made, by method: which way keystrokes travelled (StreamInput or SendInput). */
const inputCalls = { StreamInput: 0, SendInput: 0, tunnelled: 0 }
const pageFetch = window.fetch.bind(window)
window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const method = String(input instanceof Request ? input.url : input).match(/\/process\.Process\/(\w+)$/)?.[1]
  if (method === 'StreamInput' || method === 'SendInput') inputCalls[method]++
  return pageFetch(input, init)
}
/** StreamInput calls through the local stack's tunnel: a WebSocket each, not a fetch. */
window.WebSocket = class extends WebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols)
    if (new URL(url).pathname === '/process.Process/StreamInput') inputCalls.tunnelled++
  }
}

const host = document.getElementById('host') as HTMLElement
const terminals = new Map<number, BenchTerminal>()
let session: SandboxSession | undefined
let shown: BenchTerminal | undefined
let nextId = 1
let limitBytes: Uint8Array | undefined

function add(t: BenchTerminal): number {
  const id = nextId++
  terminals.set(id, t)
  bench.show(id)
  return id
}

/** `work`, or an error naming it once `ms` have passed. */
const bounded = <T>(ms: number, what: string, work: Promise<T>) =>
  within(work, ms, () => new Error(`${what}: no answer within ${ms} ms`))

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
    // Signed in by the token in the page's address, as the IDE is by its link.
    const signIn = await signInFromAddress()
    if (!signIn.signedIn) throw new Error(`not signed in: ${signIn.reason}`)
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
    await bounded(timeoutMs, 'connecting to the sandbox', running)
  },

  /**
   * A new terminal (a new login shell) shown in the host, with the bench prompt; returns its id.
   * With `fixedWindowBytes`, its output window stays that size instead of following the link.
   */
  async open(
    timeoutMs: number,
    fixedWindowBytes?: number,
  ): Promise<{ id: number; cols: number; rows: number; renderer: string }> {
    const current = session
    if (!current) throw new Error('not connected')
    const instance = new TerminalInstance(
      current,
      { id: `bench-${nextId}`, tag: `bench-terminal:${nextId}`, title: `Bench ${nextId}` },
      {
        theme: 'dark',
        ...(fixedWindowBytes !== undefined ? { outputWindow: new FixedOutputWindow(fixedWindowBytes) } : {}),
      },
      useTerminalSettings,
      () => {},
    )
    const probe = new Probe()
    const term = instance.term
    const t: BenchTerminal = {
      term,
      probe,
      rawWrite: probeWrites(term, probe),
      show: () => {
        instance.attachTo(host)
        instance.focus()
      },
      hide: () => instance.detach(),
      close: async () => {
        const pid = instance.pid
        instance.dispose()
        if (pid === undefined || !current.clients) return
        await current.clients.process.sendSignal({
          process: create(ProcessSelectorSchema, { selector: { case: 'pid', value: pid } }),
          signal: Signal.SIGKILL,
        })
      },
    }
    probe.arm(benchPrompt, false)
    const prompt = settledOf(t)
    const id = add(t)
    await bounded(timeoutMs, 'the shell to start', waitForPid(instance))
    // The leading space keeps it out of the shell's history; `\$` is `$` for a user.
    term.input(` PS1='bench-ready\\$ '\r`)
    await bounded(timeoutMs, 'the bench prompt', prompt)
    // Where the IDE marks its renderer (WebGL while visible, else DOM); unmarked means DOM.
    return { id, cols: term.cols, rows: term.rows, renderer: instance.element.dataset.renderer ?? 'dom' }
  },

  /**
   * The echo baseline: a bare xterm whose keystrokes go to a trivial server and come back on a
   * streamed response into it, no runtime, no PTY, no router: a request per key over http, one
   * streamed upload over https (as the IDE's terminal sends them); shown in the host.
   */
  async openEchoBaseline(baseUrl: string, timeoutMs: number): Promise<{ id: number }> {
    const term = new Terminal({ fontSize: 13, cursorBlink: false, scrollback: 10_000 })
    const element = document.createElement('div')
    element.style.height = '100%'
    term.open(element)
    const probe = new Probe()
    const rawWrite = probeWrites(term, probe)
    const abort = new AbortController()
    const echoes = await bounded(
      timeoutMs,
      'the echo stream',
      pageFetch(`${baseUrl}/echo`, { signal: abort.signal }),
    )
    void (async () => {
      const reader = (echoes.body as ReadableStream<Uint8Array>).getReader()
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        term.write(value)
      }
    })().catch(() => {})
    term.onData(keySender(baseUrl, abort.signal))
    const id = add({
      term,
      probe,
      rawWrite,
      show: () => {
        host.appendChild(element)
        term.focus()
      },
      hide: () => element.remove(),
      close: async () => {
        abort.abort()
        term.dispose()
        element.remove()
      },
    })
    return { id }
  },

  /** Shows terminal `id` in the host (the one shown before is detached, as a hidden tab is) and focuses it. */
  show(id: number): void {
    const t = terminal(id)
    if (shown && shown !== t) shown.hide()
    shown = t
    t.show()
  },

  /** Types text as xterm's onData would send it (keystrokes that are not being timed). */
  type(id: number, text: string): void {
    terminal(id).term.input(text)
  },

  /** Watches for `marker` in terminal `id`, timed from the next keydown or from now. */
  arm(id: number, marker: string, fromKeydown: boolean): void {
    terminal(id).probe.arm(marker, fromKeydown)
  },

  /** The armed watch's timing, once its marker is parsed. */
  result(id: number, timeoutMs: number): Promise<Timing> {
    return bounded(timeoutMs, 'waiting for the marker', settledOf(terminal(id)))
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
  async limit(id: number, line: string, size: number, timeoutMs: number): Promise<Throughput> {
    const t = terminal(id)
    limitBytes ??= ptyBytes(line, size)
    const bytes = limitBytes
    const chunk = 64 * 1024
    const done = new Promise<Throughput>((resolve) => {
      const t0 = performance.now()
      for (let at = 0; at < bytes.length; at += chunk) {
        const last = at + chunk >= bytes.length
        t.rawWrite(bytes.subarray(at, at + chunk), () => {
          if (last) resolve({ ms: performance.now() - t0, bytes: bytes.length })
        })
      }
    })
    return bounded(timeoutMs, 'the no-network write', done)
  },

  /**
   * The stream baseline: the same bytes from a trivial server (`url`), read as the IDE reads a
   * terminal's stream (into its OutputWriter, reading waiting for room) into the same xterm.
   */
  async baselineStream(id: number, url: string, timeoutMs: number): Promise<Throughput> {
    const t = terminal(id)
    const writer = new OutputWriter((data, parsed) => t.rawWrite(data, parsed))
    const read = async (): Promise<Throughput> => {
      const t0 = performance.now()
      const reader = ((await pageFetch(url)).body as ReadableStream<Uint8Array>).getReader()
      let bytes = 0
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        bytes += value.length
        writer.push(value)
        await writer.room()
      }
      await new Promise<void>((resolve) => writer.push(new Uint8Array([0x20]), undefined, resolve))
      return { ms: performance.now() - t0, bytes }
    }
    return bounded(timeoutMs, 'the baseline stream', read()).finally(() => writer.dispose())
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

  /** Ends terminal `id` (for the IDE's, its shell too, as closing its tab does). */
  async close(id: number): Promise<void> {
    const t = terminal(id)
    if (shown === t) shown = undefined
    terminals.delete(id)
    await t.close()
  },
}

/** Bytes parsed, and how long it took. */
export type Throughput = Pick<Timing, 'ms' | 'bytes'>

/**
 * Sends the baseline's keystrokes as the IDE's terminal would: over https, on one streamed
 * upload (Chromium streams a request body over HTTP/2 only); over http, a request per key.
 */
function keySender(baseUrl: string, signal: AbortSignal): (data: string) => void {
  const encoder = new TextEncoder()
  if (!baseUrl.startsWith('https:')) {
    return (data) => void pageFetch(`${baseUrl}/keys`, { method: 'POST', body: data, signal }).catch(() => {})
  }
  let upload: ReadableStreamDefaultController<Uint8Array> | undefined
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      upload = controller
    },
  })
  const init: RequestInit & { duplex: 'half' } = { method: 'POST', body, duplex: 'half', signal }
  pageFetch(`${baseUrl}/keys`, init).catch(() => {})
  return (data) => upload?.enqueue(encoder.encode(data))
}

async function waitForPid(instance: TerminalInstance): Promise<void> {
  while (instance.pid === undefined) {
    const status = instance.getSnapshot().status
    if (status.kind === 'failed' || status.kind === 'exited')
      throw new Error(`the shell did not start: ${JSON.stringify(status)}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

export type TerminalBench = typeof bench

declare global {
  interface Window {
    terminalBench: TerminalBench
  }
}

/** An output window of one size whatever the link: what the IDE asked for before its window followed the link. */
class FixedOutputWindow implements OutputWindowPolicy {
  constructor(readonly wanted: number) {}
  restart(): void {}
  progress(): void {}
  roundTrip(): void {}
}

window.terminalBench = bench
