// Acknowledged output (our extension, `X-Output-Window`): on the wire, with raw fetch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { envelope, postStream, postUnary, splitEnvelopes } from '../testing/wire'

const window = 64 * 1024
/** What may still come after the window is full: the output being gathered into one event. */
const slack = 2 * 32 * 1024

/** A Connect stream read by hand, counting the output bytes that came. */
class OutputReader {
  bytes = 0
  /** The largest data event that came, in bytes. */
  largest = 0
  /** The code of the error the stream ended with, if any. */
  error: string | undefined
  private buffered = new Uint8Array(0)
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined

  constructor(
    readonly response: Response,
    private readonly kind: 'stdout' | 'pty' = 'stdout',
  ) {
    this.reader = (response.body as ReadableStream<Uint8Array>).getReader()
  }

  /** Reads until nothing comes for `quietMs` (or `enough` bytes came); returns the bytes counted so far. */
  /**
   * Reads until nothing comes for `quietMs`, or `enough` bytes came. Quiet counts only once
   * `atLeast` bytes came: on a loaded machine the first bytes may take longer than a quiet spell.
   */
  async readUntilQuiet(quietMs: number, enough = Number.POSITIVE_INFINITY, atLeast = 0): Promise<number> {
    while (this.bytes < enough) {
      this.pending ??= this.reader.read()
      const waits: Promise<ReadableStreamReadResult<Uint8Array> | 'quiet'>[] = [this.pending]
      if (this.bytes >= atLeast)
        waits.push(new Promise<'quiet'>((resolve) => setTimeout(resolve, quietMs, 'quiet')))
      const result = await Promise.race(waits)
      if (result === 'quiet') return this.bytes
      this.pending = undefined
      if (result.done) return this.bytes
      this.take(result.value)
    }
    return this.bytes
  }

  cancel(): Promise<void> {
    return this.reader.cancel()
  }

  private take(chunk: Uint8Array): void {
    const merged = new Uint8Array(this.buffered.length + chunk.length)
    merged.set(this.buffered)
    merged.set(chunk, this.buffered.length)
    const view = new DataView(merged.buffer)
    let end = 0
    while (end + 5 <= merged.length && end + 5 + view.getUint32(end + 1) <= merged.length)
      end += 5 + view.getUint32(end + 1)
    for (const e of splitEnvelopes(merged.subarray(0, end))) {
      const data = e.json?.event?.data?.[this.kind]
      const size = data ? Buffer.from(data, 'base64').length : 0
      this.bytes += size
      this.largest = Math.max(this.largest, size)
      this.error ??= e.json?.error?.code
    }
    this.buffered = merged.slice(end)
  }
}

describe('acknowledged output (X-Output-Window)', () => {
  let rt: TestRuntime
  beforeAll(async () => {
    rt = await startTestRuntime()
  })
  afterAll(() => rt.close())

  const start = (body: unknown, headers: Record<string, string>) =>
    fetch(`${rt.url}/process.Process/Start`, {
      method: 'POST',
      headers: { ...rt.auth, 'Content-Type': 'application/connect+json', ...headers },
      body: envelope(JSON.stringify(body)),
    })
  const ack = (stream: string, offset: string | number, headers = rt.auth, method = 'POST') =>
    fetch(`${rt.url}/output-ack?stream=${stream}`, {
      method,
      headers,
      ...(method === 'POST' ? { body: String(offset) } : {}),
    })
  const kill = (pid: number) =>
    postUnary(rt.url, '/process.Process/SendSignal', { process: { pid }, signal: 'SIGNAL_SIGKILL' }, rt.auth)

  it('is off unless asked for: a stream without the header gets no window headers (as envd)', async () => {
    const res = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'echo', args: ['hi'] } },
      rt.auth,
    )
    expect(res.headers.get('x-output-window')).toBeNull()
    expect(res.headers.get('x-output-stream')).toBeNull()
  })

  it('grants a clamped window and an id, and rejects a malformed one with invalid_argument', async () => {
    const res = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'echo', args: ['hi'] } },
      { ...rt.auth, 'X-Output-Window': '1' },
    )
    expect(res.headers.get('x-output-window')).toBe(String(64 * 1024))
    expect(res.headers.get('x-output-stream')).toMatch(/^[0-9a-f-]{36}$/)
    const bad = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'echo', args: ['hi'] } },
      { ...rt.auth, 'X-Output-Window': 'lots' },
    )
    expect(bad.envelopes[0]?.json?.error?.code).toBe('invalid_argument')
  })

  it('holds output once a window of it is unacknowledged, and lets more through as it is acknowledged', async () => {
    const res = await start(
      { process: { cmd: 'yes', args: ['flood'] } },
      { 'X-Output-Window': String(window) },
    )
    const stream = res.headers.get('x-output-stream') as string
    const reader = new OutputReader(res)
    // Everything that came is read at once, yet no more than the window (and what was being gathered).
    const first = await reader.readUntilQuiet(500, Number.POSITIVE_INFINITY, window)
    expect(first).toBeGreaterThanOrEqual(window)
    expect(first).toBeLessThanOrEqual(window + slack)
    expect((await ack(stream, first)).status).toBe(204)
    const second = await reader.readUntilQuiet(500, Number.POSITIVE_INFINITY, first + window / 2)
    expect(second).toBeGreaterThanOrEqual(first + window / 2)
    expect(second).toBeLessThanOrEqual(first + window + slack)
    const pid = (await postUnary(rt.url, '/process.Process/List', {}, rt.auth)).json.processes.find(
      (p: { config: { cmd: string } }) => p.config.cmd === 'yes',
    ).pid
    await kill(pid)
    await reader.cancel()
  })

  it('changes the window when an acknowledgement carries one, and says what it granted', async () => {
    const res = await start(
      { process: { cmd: 'yes', args: ['resized'] }, tag: 'resized' },
      { 'X-Output-Window': String(window) },
    )
    const stream = res.headers.get('x-output-stream') as string
    const reader = new OutputReader(res)
    const first = await reader.readUntilQuiet(500, Number.POSITIVE_INFINITY, window)
    expect(first).toBeLessThanOrEqual(window + slack)
    // Malformed: a 400 with envd's body, and the window stays as it was.
    const bad = await ack(stream, first, { ...rt.auth, 'X-Output-Window': '-5' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 400, message: expect.stringContaining('X-Output-Window') })
    expect(await reader.readUntilQuiet(300)).toBe(first)
    // Four times the window: about four times as much comes before the flow holds again.
    const larger = await ack(stream, first, { ...rt.auth, 'X-Output-Window': String(4 * window) })
    expect(larger.status).toBe(204)
    expect(larger.headers.get('x-output-window')).toBe(String(4 * window))
    const second = await reader.readUntilQuiet(500, Number.POSITIVE_INFINITY, first + 3 * window)
    expect(second - first).toBeGreaterThan(3 * window)
    expect(second - first).toBeLessThanOrEqual(4 * window + slack)
    // Clamped as at Start: too small becomes the smallest window.
    const clamped = await ack(stream, second, { ...rt.auth, 'X-Output-Window': '1' })
    expect(clamped.headers.get('x-output-window')).toBe(String(64 * 1024))
    const third = await reader.readUntilQuiet(500)
    expect(third - second).toBeLessThanOrEqual(64 * 1024 + slack)
    const list = await postUnary(rt.url, '/process.Process/List', {}, rt.auth)
    await kill(list.json.processes.find((p: { tag?: string }) => p.tag === 'resized').pid)
    await reader.cancel()
  })

  it('sends a client with a window larger events (a quarter of it at most), one without envd’s chunks', async () => {
    const flood = { process: { cmd: 'bash', args: ['-c', 'head -c 4000000 /dev/zero'] } }
    const plain = new OutputReader(await start(flood, {}))
    expect(await plain.readUntilQuiet(2000)).toBe(4_000_000)
    expect(plain.largest).toBeLessThanOrEqual(32 * 1024)
    const acked = new OutputReader(await start(flood, { 'X-Output-Window': String(8 * 1024 * 1024) }))
    expect(await acked.readUntilQuiet(2000)).toBe(4_000_000)
    // A pipe hands over 64 KiB a read, more than envd's chunk: those go out whole.
    expect(acked.largest).toBeGreaterThan(32 * 1024)
    expect(acked.largest).toBeLessThanOrEqual(256 * 1024)
    const small = new OutputReader(await start(flood, { 'X-Output-Window': String(128 * 1024) }))
    expect(await small.readUntilQuiet(2000, 256 * 1024)).toBeGreaterThan(0)
    expect(small.largest).toBeLessThanOrEqual(32 * 1024)
    await small.cancel()
  })

  it('after a Ctrl-C into a flooding terminal, says where the interrupt flushed the output', async () => {
    const flushedAt = async (script: string) => {
      const res = await start(
        {
          process: { cmd: 'bash', args: ['-c', script] },
          pty: { size: { cols: 80, rows: 24 } },
          tag: script,
        },
        { 'X-Output-Window': String(window) },
      )
      const stream = res.headers.get('x-output-stream') as string
      const reader = new OutputReader(res, 'pty')
      const received = await reader.readUntilQuiet(500)
      const list = await postUnary(rt.url, '/process.Process/List', {}, rt.auth)
      const pid = list.json.processes.find((p: { tag?: string }) => p.tag === script).pid
      const input = { process: { pid }, input: { pty: Buffer.from('\x03').toString('base64') } }
      const sent = await postUnary(rt.url, '/process.Process/SendInput', input, rt.auth)
      expect(sent.status).toBe(200)
      // The answer to an acknowledgement says it too (StreamInput has no answer of its own).
      const answer = await ack(stream, 0)
      expect(answer.status).toBe(204)
      expect(answer.headers.get('x-output-flush')).toBe(sent.headers.get('x-output-flush'))
      await kill(pid)
      await reader.cancel()
      return { received, flush: sent.headers.get('x-output-flush') }
    }
    // SIGINT ignored, so the flood goes on; the terminal still takes ^C as an interrupt.
    const cooked = await flushedAt("trap '' INT; yes flood")
    expect(Number(cooked.flush)).toBeGreaterThanOrEqual(cooked.received)
    // In raw mode ^C is a plain byte for the program: nothing is flushed.
    expect((await flushedAt("stty raw; trap '' INT; yes flood")).flush).toBeNull()
  })

  it('answers acknowledgements: 204, or 400, 404, 405 and 401 with envd’s error body', async () => {
    const res = await postStream(
      rt.url,
      '/process.Process/Start',
      { process: { cmd: 'sleep', args: ['30'] }, tag: 'acks' },
      { ...rt.auth, 'X-Output-Window': String(window) },
      (e) => e.length > 0,
    )
    const stream = res.headers.get('x-output-stream') as string
    // The stream was cancelled above: its id is gone.
    await new Promise((r) => setTimeout(r, 100))
    const gone = await ack(stream, 0)
    expect(gone.status).toBe(404)
    expect(await gone.json()).toMatchObject({ code: 404 })
    expect((await ack(stream, 'x')).status).toBe(400)
    expect((await ack(stream, 0, rt.auth, 'GET')).status).toBe(405)
    expect((await ack(stream, 0, {})).status).toBe(401)
    const list = await postUnary(rt.url, '/process.Process/List', {}, rt.auth)
    await kill(list.json.processes.find((p: { tag?: string }) => p.tag === 'acks').pid)
  })

  it('cuts loose a stream that acknowledges nothing for 5 s, so a reader without a window goes on', async () => {
    const res = await start(
      { process: { cmd: 'yes', args: ['flood'] }, tag: 'unacked' },
      { 'X-Output-Window': String(window) },
    )
    const silent = new OutputReader(res)
    await silent.readUntilQuiet(200)
    const list = await postUnary(rt.url, '/process.Process/List', {}, rt.auth)
    const pid = list.json.processes.find((p: { tag?: string }) => p.tag === 'unacked').pid
    const other = new OutputReader(
      await fetch(`${rt.url}/process.Process/Connect`, {
        method: 'POST',
        headers: { ...rt.auth, 'Content-Type': 'application/connect+json' },
        body: envelope(JSON.stringify({ process: { pid } })),
      }),
    )
    expect(await other.readUntilQuiet(7000, 1024 * 1024)).toBeGreaterThanOrEqual(1024 * 1024)
    await silent.readUntilQuiet(500)
    expect(silent.error).toBe('resource_exhausted')
    await kill(pid)
    await Promise.all([silent.cancel(), other.cancel()])
  }, 20_000)
})
