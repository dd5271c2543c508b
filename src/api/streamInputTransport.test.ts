import { Code, ConnectError } from '@connectrpc/connect'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { concatBytes } from '../common/concatBytes'
import { decodeEnvelopes, encodeEnvelope, endStreamFlag } from './connectEnvelope'
import {
  maxMessageBytes,
  openStreamInput,
  StreamInputHttpError,
  streamInputDataEnvelope,
  streamInputEnvelope,
} from './streamInputTransport'

const bytes = (s: string) => new TextEncoder().encode(s)
const text = (b: Uint8Array) => new TextDecoder().decode(b)
const target = { runtimeUrl: 'https://49983-abc.localhost:8787', accessToken: 's3cret', pid: 42 }

/** A Connect streaming response body: the message, then the end-of-stream envelope. */
function connectBody(end: unknown = {}): Uint8Array<ArrayBuffer> {
  return concatBytes([encodeEnvelope(bytes('{}')), encodeEnvelope(bytes(JSON.stringify(end)), endStreamFlag)])
}

/**
 * A fetch that reads the request body as the server would (envelope by envelope), then
 * answers with `respond`'s response once the body has ended, as half duplex does.
 */
function fakeFetch(respond: () => Response = () => new Response(connectBody())) {
  const seen: { url: string; init: RequestInit & { duplex?: string }; messages: unknown[] } = {
    url: '',
    init: {},
    messages: [],
  }
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    seen.url = String(url)
    seen.init = init ?? {}
    const reader = (seen.init.body as ReadableStream<Uint8Array>).getReader()
    let buffered = new Uint8Array(0)
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      const merged = new Uint8Array(buffered.length + value.length)
      merged.set(buffered)
      merged.set(value, buffered.length)
      buffered = merged
    }
    seen.messages = decodeEnvelopes(buffered).map((e) => JSON.parse(text(e.payload)))
    return respond()
  })
  return { fetch: fetch as unknown as typeof globalThis.fetch, seen }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('StreamInput messages', () => {
  it('encodes StreamInput messages as protojson, bytes in base64', () => {
    const json = (env: Uint8Array) => text(env.subarray(5))
    expect(
      json(
        streamInputEnvelope({ case: 'start', value: { process: { selector: { case: 'pid', value: 7 } } } }),
      ),
    ).toBe('{"start":{"process":{"pid":7}}}')
    expect(
      json(
        streamInputEnvelope({
          case: 'data',
          value: { input: { input: { case: 'pty', value: bytes('ls\r') } } },
        }),
      ),
    ).toBe('{"data":{"input":{"pty":"bHMN"}}}')
    expect(json(streamInputEnvelope({ case: 'keepalive', value: {} }))).toBe('{"keepalive":{}}')
  })

  it('writes a data message with the very bytes protobuf makes of it', () => {
    const every = Uint8Array.from({ length: 256 }, (_, i) => i)
    const paste = Uint8Array.from({ length: maxMessageBytes }, (_, i) => (i * 7919) % 251)
    for (const input of [
      bytes(''),
      bytes('a'),
      bytes('ls\r'),
      bytes('é€😀'),
      bytes('\x1b[A'),
      every,
      paste,
    ]) {
      for (const kind of ['pty', 'stdin'] as const) {
        const viaProtobuf = streamInputEnvelope({
          case: 'data',
          value: { input: { input: { case: kind, value: input } } },
        })
        expect(streamInputDataEnvelope(input, kind)).toEqual(viaProtobuf)
      }
    }
    // A piece of a larger buffer is encoded as itself, not as the buffer around it.
    expect(streamInputDataEnvelope(every.subarray(65, 68))).toEqual(streamInputDataEnvelope(bytes('ABC')))
  })
})

describe('openStreamInput', () => {
  it('streams start, then the data in order, with the Connect headers and duplex half', async () => {
    const { fetch, seen } = fakeFetch()
    const call = openStreamInput(target, { fetch })
    call.write(bytes('echo '))
    call.write(bytes('hi\r'))
    await call.finish()
    expect(seen.url).toBe('https://49983-abc.localhost:8787/process.Process/StreamInput')
    expect(seen.init.method).toBe('POST')
    expect(seen.init.duplex).toBe('half')
    expect(seen.init.headers).toEqual({
      'Content-Type': 'application/connect+json',
      'Connect-Protocol-Version': '1',
      'X-Access-Token': 's3cret',
    })
    expect(seen.messages).toEqual([
      { start: { process: { pid: 42 } } },
      { data: { input: { pty: btoa('echo ') } } },
      { data: { input: { pty: btoa('hi\r') } } },
    ])
  })

  it('sends no token header for a runtime without one', async () => {
    const { fetch, seen } = fakeFetch()
    await openStreamInput({ ...target, accessToken: null }, { fetch }).finish()
    expect(Object.keys(seen.init.headers ?? {})).not.toContain('X-Access-Token')
  })

  it('splits a big paste into messages of at most 64 KiB, in order', async () => {
    const { fetch, seen } = fakeFetch()
    const call = openStreamInput(target, { fetch })
    const paste = new Uint8Array(maxMessageBytes * 2 + 10).map((_, i) => 97 + (i % 26))
    call.write(paste)
    await call.finish()
    const data = seen.messages.slice(1) as { data: { input: { pty: string } } }[]
    const sizes = data.map((m) => atob(m.data.input.pty).length)
    expect(sizes).toEqual([maxMessageBytes, maxMessageBytes, 10])
    expect(data.map((m) => atob(m.data.input.pty)).join('')).toBe(text(paste))
  })

  it('sends a keepalive when nothing else went out for keepaliveMs', async () => {
    vi.useFakeTimers()
    const { fetch, seen } = fakeFetch()
    const call = openStreamInput(target, { fetch, keepaliveMs: 30_000 })
    await vi.advanceTimersByTimeAsync(29_000)
    call.write(bytes('a'))
    await vi.advanceTimersByTimeAsync(29_000) // quiet for 29 s since the write: none yet
    await vi.advanceTimersByTimeAsync(2_000)
    await call.finish()
    expect(seen.messages).toEqual([
      { start: { process: { pid: 42 } } },
      { data: { input: { pty: btoa('a') } } },
      { keepalive: {} },
    ])
  })

  it('rejects with the end-of-stream error as a ConnectError', async () => {
    const { fetch } = fakeFetch(
      () =>
        new Response(connectBody({ error: { code: 'not_found', message: 'process with pid 42 not found' } })),
    )
    const err = await openStreamInput(target, { fetch })
      .finish()
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConnectError)
    expect((err as ConnectError).code).toBe(Code.NotFound)
    expect((err as ConnectError).rawMessage).toBe('process with pid 42 not found')
  })

  it('rejects with the status and the server’s message on an HTTP error', async () => {
    const { fetch } = fakeFetch(
      () =>
        new Response(JSON.stringify({ sandboxId: 'abc', message: 'The sandbox is paused', code: 502 }), {
          status: 502,
        }),
    )
    const err = await openStreamInput(target, { fetch })
      .finish()
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StreamInputHttpError)
    expect((err as StreamInputHttpError).status).toBe(502)
    expect((err as Error).message).toBe('HTTP 502: The sandbox is paused')
  })

  it('rejects a response without its end-of-stream message', async () => {
    const { fetch } = fakeFetch(() => new Response(encodeEnvelope(bytes('{}'))))
    await expect(openStreamInput(target, { fetch }).finish()).rejects.toThrow(/end-of-stream/)
  })

  it('reports a fetch that fails at once (a browser that cannot stream) through result', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    }) as unknown as typeof globalThis.fetch
    const call = openStreamInput(target, { fetch })
    await expect(call.result).rejects.toBeInstanceOf(TypeError)
    call.write(bytes('after')) // the body is gone: ignored, not thrown
  })

  it('abort ends the call with a rejection', async () => {
    const { fetch } = fakeFetch()
    const call = openStreamInput(target, {
      fetch: ((url: string, init: RequestInit) =>
        new Promise((resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
          void fetch(url, init).then(resolve)
        })) as unknown as typeof globalThis.fetch,
    })
    call.abort()
    await expect(call.result).rejects.toThrow(/abort/)
  })
})
