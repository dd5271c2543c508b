import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { StreamInputCall, StreamInputTarget } from '../api/streamInputTransport'
import { createInputChannel } from './createInputChannel'
import type { InputChannel } from './inputChannel'
import { StreamInputChannel } from './streamInputChannel'

const bytes = (s: string) => new TextEncoder().encode(s)
const text = (b: Uint8Array) => new TextDecoder().decode(b)
const https = { runtimeUrl: 'https://49983-abc.localhost:8787', accessToken: 't', pid: 7 }

/** A StreamInput call the test settles by hand; records what was written and whether it ended. */
interface FakeCall extends StreamInputCall {
  written: string[]
  finished: boolean
  aborted: boolean
  accept(): void
  fail(err: unknown): void
}

function fakeCall(): FakeCall {
  let accept = () => {}
  let fail: (err: unknown) => void = () => {}
  const result = new Promise<void>((resolve, reject) => {
    accept = resolve
    fail = reject
  })
  result.catch(() => {})
  const call: FakeCall = {
    written: [],
    finished: false,
    aborted: false,
    write: (data) => call.written.push(text(data)),
    finish: () => {
      call.finished = true
      return result
    },
    abort: () => {
      call.aborted = true
      fail(new DOMException('aborted', 'AbortError'))
    },
    result,
    accept: () => accept(),
    fail: (err) => fail(err),
  }
  return call
}

/** A SendInput channel that records, in order, what it was given. */
function recordingFallback() {
  const pushed: string[] = []
  const channel: InputChannel & { pushed: string[]; retried: number; disposed: boolean; cleared: boolean } = {
    pushed,
    retried: 0,
    disposed: false,
    cleared: false,
    push: (d) => pushed.push(text(d)),
    retry: () => {
      channel.retried++
    },
    clear: () => {
      channel.cleared = true
    },
    dispose: () => {
      channel.disposed = true
    },
  }
  return channel
}

/** `null`: the process is not known yet. */
function setup(target: StreamInputTarget | null = https, options: { maxBurstBytes?: number } = {}) {
  const calls: FakeCall[] = []
  const fallback = recordingFallback()
  const reasons: string[] = []
  let current = target ?? undefined
  const channel = new StreamInputChannel({
    target: () => current,
    fallback: () => fallback,
    onFallback: (reason) => reasons.push(reason),
    open: () => {
      const call = fakeCall()
      calls.push(call)
      return call
    },
    burstIdleMs: 1000,
    ...options,
  })
  return {
    channel,
    calls,
    fallback,
    reasons,
    setTarget: (t: StreamInputTarget) => {
      current = t
    },
  }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('StreamInputChannel', () => {
  it('writes each keystroke at once on one call, ends it after a silence, and needs its {} before the next', async () => {
    const { channel, calls } = setup()
    channel.push(bytes('l'))
    channel.push(bytes('s'))
    expect(calls).toHaveLength(1)
    expect(calls[0]?.written).toEqual(['l', 's'])
    await vi.advanceTimersByTimeAsync(999)
    expect(calls[0]?.finished).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls[0]?.finished).toBe(true)
    // Typed while the first call ends: waits for its answer, then goes out joined, in order.
    channel.push(bytes('\r'))
    channel.push(bytes('pwd'))
    expect(calls).toHaveLength(1)
    calls[0]?.accept()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toHaveLength(2)
    expect(calls[1]?.written).toEqual(['\rpwd'])
  })

  it('opens the next call as soon as one is acknowledged, so the next keystroke goes out at once', async () => {
    const { channel, calls } = setup()
    channel.push(bytes('a'))
    await vi.advanceTimersByTimeAsync(1000)
    calls[0]?.accept()
    await vi.advanceTimersByTimeAsync(0)
    // Open before anything is typed, and not ended by the silence that follows.
    expect(calls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls[1]?.finished).toBe(false)
    channel.push(bytes('b'))
    expect(calls).toHaveLength(2)
    expect(calls[1]?.written).toEqual(['b'])
    await vi.advanceTimersByTimeAsync(1000)
    expect(calls[1]?.finished).toBe(true)
  })

  it('opens a call when the terminal attaches over https, and none over http', () => {
    const { channel, calls } = setup()
    channel.retry()
    expect(calls).toHaveLength(1)
    expect(calls[0]?.written).toEqual([])
    const plain = setup({ ...https, runtimeUrl: 'http://49983-abc.localhost:8787' })
    plain.channel.retry()
    expect(plain.calls).toHaveLength(0)
    expect(plain.channel.usesFallback).toBe(false)
  })

  it('drops a call opened ahead that fails before carrying anything, without falling back', async () => {
    const { channel, calls, fallback, reasons } = setup()
    channel.retry()
    calls[0]?.fail(new TypeError('network error'))
    await vi.advanceTimersByTimeAsync(0)
    expect(channel.usesFallback).toBe(false)
    expect(reasons).toEqual([])
    channel.push(bytes('x'))
    expect(calls).toHaveLength(2)
    expect(calls[1]?.written).toEqual(['x'])
    // The usual rule for a call that carried input: it fails over to SendInput, with its bytes.
    calls[1]?.fail(new TypeError('network error'))
    await vi.advanceTimersByTimeAsync(0)
    expect(fallback.pushed).toEqual(['x'])
  })

  it('ends a burst at its size limit, so a big paste goes out in acknowledged pieces, in order', async () => {
    const { channel, calls } = setup(https, { maxBurstBytes: 4 })
    channel.push(bytes('abcdefghij'))
    expect(calls[0]?.written).toEqual(['abcd'])
    expect(calls[0]?.finished).toBe(true)
    calls[0]?.accept()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls[1]?.written).toEqual(['efgh'])
    calls[1]?.accept()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls[2]?.written).toEqual(['ij'])
    expect(calls[2]?.finished).toBe(false)
  })

  it('waits for the process before opening a call, and sends what waited on retry', () => {
    const { channel, calls, setTarget } = setup(null)
    channel.push(bytes('early'))
    expect(calls).toHaveLength(0)
    setTarget(https)
    channel.retry()
    expect(calls[0]?.written).toEqual(['early'])
  })

  it('uses SendInput from the start for an http runtime, without calling it a failure', () => {
    const { channel, calls, fallback, reasons } = setup({
      ...https,
      runtimeUrl: 'http://49983-abc.localhost:8787',
    })
    channel.push(bytes('a'))
    channel.push(bytes('b'))
    expect(calls).toHaveLength(0)
    expect(fallback.pushed).toEqual(['a', 'b'])
    expect(reasons).toEqual([])
    expect(channel.usesFallback).toBe(true)
  })

  it('falls back on a TypeError at once, resending everything written and queued, in order', async () => {
    const { channel, calls, fallback, reasons } = setup()
    channel.push(bytes('echo '))
    channel.push(bytes('one'))
    calls[0]?.fail(new TypeError('Failed to fetch'))
    await vi.advanceTimersByTimeAsync(0)
    channel.push(bytes('\r'))
    expect(fallback.pushed.join('')).toBe('echo one\r')
    expect(reasons).toEqual(['TypeError: Failed to fetch'])
    // For good: nothing opens another call, and retry goes to SendInput.
    channel.push(bytes('x'))
    channel.retry()
    expect(calls).toHaveLength(1)
    expect(fallback.retried).toBe(1)
  })

  it('resends nothing when the page going away took its call (what it carried was sent)', async () => {
    const { channel, calls, fallback, reasons } = setup()
    channel.push(bytes('echo shell\r'))
    calls[0]?.fail(new DOMException('the page is going away', 'AbortError'))
    await vi.advanceTimersByTimeAsync(0)
    expect(fallback.pushed).toEqual([])
    expect(reasons).toEqual([])
    // Should the page stay (a cancelled navigation), typing goes on by a new call.
    channel.push(bytes('x'))
    expect(calls).toHaveLength(2)
    expect(calls[1]?.written).toEqual(['x'])
  })

  it('falls back on a 505, with the status in the reason', async () => {
    const { StreamInputHttpError } = await import('../api/streamInputTransport')
    const { channel, calls, fallback, reasons } = setup()
    channel.push(bytes('a'))
    calls[0]?.fail(new StreamInputHttpError(505, 'HTTP 505'))
    await vi.advanceTimersByTimeAsync(0)
    expect(fallback.pushed).toEqual(['a'])
    expect(reasons).toEqual(['HTTP 505'])
  })

  it('on a failure mid-stream, resends the unacknowledged call first, then what waited behind it', async () => {
    const { channel, calls, fallback } = setup()
    channel.push(bytes('first'))
    await vi.advanceTimersByTimeAsync(1000) // ended, its {} awaited
    calls[0]?.accept()
    await vi.advanceTimersByTimeAsync(0)
    channel.push(bytes('sec'))
    channel.push(bytes('ond'))
    await vi.advanceTimersByTimeAsync(1000)
    channel.push(bytes(' third')) // waits behind the ending call
    calls[1]?.fail(new TypeError('network error'))
    await vi.advanceTimersByTimeAsync(0)
    channel.push(bytes(' fourth'))
    // "first" was acknowledged: not sent again. The rest arrives once, in order.
    expect(fallback.pushed.join('')).toBe('second third fourth')
  })

  it('ignores the aborted call after clear, and forgets what waited', async () => {
    const { channel, calls, fallback } = setup()
    channel.push(bytes('gone'))
    channel.clear()
    expect(calls[0]?.aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(0)
    expect(fallback.pushed).toEqual([])
    expect(channel.usesFallback).toBe(false)
    channel.push(bytes('new'))
    expect(calls[1]?.written).toEqual(['new'])
  })

  it('dispose aborts the open call, and SendInput too once it took over', async () => {
    const { channel, calls, fallback } = setup()
    channel.push(bytes('a'))
    calls[0]?.fail(new TypeError('Failed to fetch'))
    await vi.advanceTimersByTimeAsync(0)
    channel.dispose()
    expect(fallback.disposed).toBe(true)
    channel.push(bytes('b'))
    expect(fallback.pushed).toEqual(['a'])
  })
})

describe('createInputChannel', () => {
  const target = () => https
  const options = { sendInput: async () => {}, onError: () => {}, streamTarget: target }

  it('sends by SendInput where the browser cannot stream a request body and no tunnel is there', async () => {
    vi.useRealTimers()
    const sent: string[] = []
    const channel = createInputChannel({
      ...options,
      sendInput: async (d) => {
        sent.push(text(d))
      },
      supportsStreams: () => false,
    })
    channel.push(bytes('by SendInput'))
    await new Promise((r) => setTimeout(r, 0))
    expect(sent).toEqual(['by SendInput'])
  })

  it('streams through the tunnel in a browser that cannot stream a request body', async () => {
    vi.useRealTimers()
    const calls: string[] = []
    const streamFetch = (async (url: string) => {
      calls.push(url)
      return new Response(null, { status: 503 })
    }) as unknown as typeof fetch
    const channel = createInputChannel({
      ...options,
      sendInput: async () => {},
      streamTarget: () => ({ ...https, runtimeUrl: 'http://49983-abc.localhost:8787', streamFetch }),
      supportsStreams: () => false,
    })
    channel.push(bytes('streamed'))
    await new Promise((r) => setTimeout(r, 0))
    expect(calls).toEqual(['http://49983-abc.localhost:8787/process.Process/StreamInput'])
    channel.dispose()
  })

  it('chooses StreamInput where it can, with SendInput behind it', async () => {
    vi.useRealTimers()
    const sent: string[] = []
    const channel = createInputChannel({
      ...options,
      sendInput: async (d) => {
        sent.push(text(d))
      },
      streamTarget: () => ({ ...https, runtimeUrl: 'http://49983-abc.localhost:8787' }),
      supportsStreams: () => true,
    })
    expect(channel).toBeInstanceOf(StreamInputChannel)
    channel.push(bytes('by SendInput'))
    await new Promise((r) => setTimeout(r, 0))
    expect(sent).toEqual(['by SendInput'])
  })
})
