import { create, fromBinary, toBinary } from '@bufbuild/protobuf'
import { Code, ConnectError } from '@connectrpc/connect'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { concatBytes } from '../common/concatBytes'
import { ConnectRequestSchema, type ProcessEvent, StartResponseSchema } from '../gen/process_pb'
import { decodeEnvelopes, encodeEnvelope, endStreamFlag } from './connectEnvelope'
import { readProcessStream } from './processStream'

const endpoint = { runtimeUrl: 'http://s1.49983-abc.localhost:8787', accessToken: 's3cret' }

const dataEnvelope = (text: string) =>
  encodeEnvelope(
    toBinary(
      StartResponseSchema,
      create(StartResponseSchema, {
        event: {
          event: { case: 'data', value: { output: { case: 'pty', value: new TextEncoder().encode(text) } } },
        },
      }),
    ),
  )
const startEnvelope = (pid: number) =>
  encodeEnvelope(
    toBinary(
      StartResponseSchema,
      create(StartResponseSchema, { event: { event: { case: 'start', value: { pid } } } }),
    ),
  )
const endEnvelope = (json: unknown = {}) =>
  encodeEnvelope(new TextEncoder().encode(JSON.stringify(json)), endStreamFlag)

/** A response whose body arrives in the given pieces, and the fetch that answers with it. */
function serve(pieces: Uint8Array[], init: ResponseInit = {}) {
  const seen: { url?: string; init?: RequestInit; cancelled: boolean } = { cancelled: false }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece)
      controller.close()
    },
    cancel() {
      seen.cancelled = true
    },
  })
  const fetch = vi.fn(async (url: string | URL | Request, requestInit?: RequestInit) => {
    seen.url = String(url)
    seen.init = requestInit
    return new Response(body, {
      status: 200,
      headers: { 'Content-Type': 'application/connect+proto', 'X-Output-Stream': 'abc' },
      ...init,
    })
  })
  vi.stubGlobal('fetch', fetch)
  return seen
}

const outputOf = (events: ProcessEvent[]) =>
  events.map((e) =>
    e.event.case === 'data' ? new TextDecoder().decode(e.event.value.output.value) : `<${e.event.case}>`,
  )

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('readProcessStream', () => {
  it('posts the request as one binary envelope, with the token and the headers asked for', async () => {
    const seen = serve([endEnvelope()])
    await readProcessStream(
      endpoint,
      { method: 'Connect', message: { process: { selector: { case: 'pid', value: 7 } } } },
      {
        signal: new AbortController().signal,
        headers: { 'X-Replay-From': '12' },
        onEvent: () => {},
        room: async () => {},
      },
    )
    expect(seen.url).toBe('http://s1.49983-abc.localhost:8787/process.Process/Connect')
    const headers = seen.init?.headers as Record<string, string>
    expect(headers).toMatchObject({
      'Content-Type': 'application/connect+proto',
      'Connect-Protocol-Version': '1',
      'X-Access-Token': 's3cret',
      'X-Replay-From': '12',
    })
    const [request] = decodeEnvelopes(seen.init?.body as Uint8Array)
    expect(fromBinary(ConnectRequestSchema, request?.payload ?? new Uint8Array()).process?.selector).toEqual({
      case: 'pid',
      value: 7,
    })
  })

  it('hands over every event in order, however the body is cut, with a wait for room after each', async () => {
    const body = concatBytes([
      startEnvelope(42),
      dataEnvelope('hello '),
      dataEnvelope('world'),
      endEnvelope(),
    ])
    for (const size of [1, 3, 9, body.length]) {
      const pieces: Uint8Array[] = []
      for (let at = 0; at < body.length; at += size) pieces.push(body.slice(at, at + size))
      serve(pieces)
      const events: ProcessEvent[] = []
      let rooms = 0
      let headers: Headers | undefined
      await readProcessStream(
        endpoint,
        { method: 'Start', message: { process: { cmd: '/bin/bash' } } },
        {
          signal: new AbortController().signal,
          onHeaders: (h) => {
            headers = h
          },
          onEvent: (e) => events.push(e),
          room: async () => {
            rooms++
          },
        },
      )
      expect(outputOf(events), `pieces of ${size}`).toEqual(['<start>', 'hello ', 'world'])
      expect(headers?.get('X-Output-Stream')).toBe('abc')
      expect(rooms).toBe(3)
    }
  })

  it('rejects with the code and message of an end-of-stream error', async () => {
    serve([
      startEnvelope(1),
      endEnvelope({ error: { code: 'not_found', message: 'process with pid 9 not found' } }),
    ])
    const events: ProcessEvent[] = []
    const failure = readProcessStream(
      endpoint,
      { method: 'Connect', message: {} },
      { signal: new AbortController().signal, onEvent: (e) => events.push(e), room: async () => {} },
    )
    await expect(failure).rejects.toMatchObject({
      code: Code.NotFound,
      rawMessage: 'process with pid 9 not found',
    })
    expect(outputOf(events)).toEqual(['<start>'])
  })

  it('rejects with what an HTTP failure says (a paused sandbox’s 502)', async () => {
    serve([new TextEncoder().encode('{"sandboxId":"abc","message":"The sandbox is paused","code":502}')], {
      status: 502,
      headers: { 'Content-Type': 'application/json' },
    })
    const failure = readProcessStream(
      endpoint,
      { method: 'Connect', message: {} },
      { signal: new AbortController().signal, onEvent: () => {}, room: async () => {} },
    )
    await expect(failure).rejects.toMatchObject({
      code: Code.Unavailable,
      rawMessage: 'HTTP 502: The sandbox is paused',
    })
  })

  it('rejects a body that stops without its end-of-stream message, or in the middle of one', async () => {
    const options = { signal: new AbortController().signal, onEvent: () => {}, room: async () => {} }
    serve([startEnvelope(1)])
    await expect(
      readProcessStream(endpoint, { method: 'Connect', message: {} }, options),
    ).rejects.toMatchObject({
      code: Code.Unavailable,
      rawMessage: 'Connect ended without its end-of-stream message',
    })
    serve([dataEnvelope('cut').subarray(0, 7)])
    await expect(readProcessStream(endpoint, { method: 'Connect', message: {} }, options)).rejects.toThrow(
      /cut short/,
    )
  })

  it('refuses an answer that is not a binary Connect stream', async () => {
    serve([new TextEncoder().encode('<html>')], { headers: { 'Content-Type': 'text/html' } })
    const failure = readProcessStream(
      endpoint,
      { method: 'Connect', message: {} },
      { signal: new AbortController().signal, onEvent: () => {}, room: async () => {} },
    )
    await expect(failure).rejects.toMatchObject({ code: Code.Internal })
  })

  it('closes its connection when it gives up, so the runtime does not keep a reader that reads nothing', async () => {
    const seen = serve([startEnvelope(1), dataEnvelope('x'), endEnvelope()])
    const failure = readProcessStream(
      endpoint,
      { method: 'Connect', message: {} },
      {
        signal: new AbortController().signal,
        onEvent: (e) => {
          if (e.event.case === 'data') throw new Error('the terminal is gone')
        },
        room: async () => {},
      },
    )
    await expect(failure).rejects.toBeInstanceOf(ConnectError)
    expect(seen.init?.signal?.aborted).toBe(true)
  })

  it('rejects as Canceled when its owner aborts', async () => {
    serve([startEnvelope(1), endEnvelope()])
    const owner = new AbortController()
    const failure = readProcessStream(
      endpoint,
      { method: 'Connect', message: {} },
      {
        signal: owner.signal,
        onEvent: () => owner.abort(),
        room: () => new Promise(() => {}),
      },
    )
    owner.abort()
    await expect(failure).rejects.toMatchObject({ code: Code.Canceled })
  })
})
