import { create, type MessageInitShape, toJsonString } from '@bufbuild/protobuf'
import { base64Encode } from '@bufbuild/protobuf/wire'
import { Code, ConnectError } from '@connectrpc/connect'
import { IdleTimer } from '../common/IdleTimer'
import { StreamInputRequestSchema } from '../gen/process_pb'
import {
  decodeEnvelopes,
  encodeEnvelope,
  endStreamError,
  endStreamFlag,
  httpErrorMessage,
} from './connectEnvelope'
import type { RuntimeEndpoint } from './files'

// connect-web cannot send a client stream (connect-es#669), so StreamInput is written here by
// hand: one fetch whose body is a ReadableStream of Connect envelopes. Browsers allow that only
// in Chromium, only over HTTP/2 (so HTTPS), and only half duplex: the answer comes once the
// body has ended, which is also the only time StreamInput says what it accepted.

/** Largest data message; a bigger write goes out as several, in order. */
export const maxMessageBytes = 64 * 1024

const encoder = new TextEncoder()

/** A StreamInput request message as one JSON envelope (protojson: bytes as base64). */
export function streamInputEnvelope(
  event: MessageInitShape<typeof StreamInputRequestSchema>['event'],
): Uint8Array {
  const json = toJsonString(StreamInputRequestSchema, create(StreamInputRequestSchema, { event }))
  return encodeEnvelope(encoder.encode(json))
}

/**
 * The data message for `bytes` of keystrokes: the same bytes as `streamInputEnvelope` makes of it
 * (a test holds them equal), written directly. Every key takes this path, and building it through
 * protobuf's reflection took about 0.07 ms a key (a page profile of 160 keys), over a quarter of
 * what the page does between a keydown and its send beyond what wetty's does.
 */
export function streamInputDataEnvelope(bytes: Uint8Array, input: ProcessInputKind = 'pty'): Uint8Array {
  return encodeEnvelope(encoder.encode(`{"data":{"input":{"${input}":"${base64Encode(bytes)}"}}}`))
}

/** Where input goes: a terminal's PTY, or the stdin pipe of a process without one (a language server). */
export type ProcessInputKind = 'pty' | 'stdin'

/** A StreamInput call that failed at the HTTP level (a router's 502, a 505, a 401…). */
export class StreamInputHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'StreamInputHttpError'
  }
}

/** The call's outcome from its response: resolves on success, throws the server's error. */
export async function readStreamInputResponse(response: Response): Promise<void> {
  if (response.status !== 200)
    throw new StreamInputHttpError(response.status, await httpErrorMessage(response))
  const body = new Uint8Array(await response.arrayBuffer())
  const end = decodeEnvelopes(body).find((e) => (e.flags & endStreamFlag) !== 0)
  if (!end) throw new ConnectError('StreamInput ended without its end-of-stream message', Code.Unknown)
  const error = endStreamError(end.payload)
  if (error) throw error
}

/** Where a StreamInput call goes. */
export interface StreamInputTarget extends RuntimeEndpoint {
  pid: number
  /** The PTY unless said otherwise. */
  input?: ProcessInputKind
}

/** One open StreamInput call. */
export interface StreamInputCall {
  /** Queues bytes for the process, as data messages of at most `maxMessageBytes`. */
  write(data: Uint8Array): void
  /** Ends the request body; returns `result`. */
  finish(): Promise<void>
  /** Abandons the call; `result` rejects. */
  abort(): void
  /** Settles when the call ends: resolved once the runtime accepted everything written. */
  readonly result: Promise<void>
}

export interface StreamInputOptions {
  /** A keepalive message goes out when nothing else did for this long (envd ignores it). */
  keepaliveMs?: number
  fetch?: typeof fetch
}

/**
 * Opens `process.Process/StreamInput` for a process: the start message at once, then a data
 * message per `write`, and a keepalive every `keepaliveMs` of silence so no proxy drops it.
 */
export function openStreamInput(
  target: StreamInputTarget,
  options: StreamInputOptions = {},
): StreamInputCall {
  const { keepaliveMs = 30_000, fetch: fetchImpl = target.streamFetch ?? globalThis.fetch.bind(globalThis) } =
    options
  const abort = new AbortController()
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined
  let open = true
  const send = (envelope: Uint8Array) => {
    if (!open) return
    try {
      controller?.enqueue(envelope)
    } catch {
      // fetch let go of the body (it failed or was aborted); `result` says why.
      return
    }
    keepalive.restart()
  }
  const keepalive = new IdleTimer(keepaliveMs, () =>
    send(streamInputEnvelope({ case: 'keepalive', value: {} })),
  )
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
    },
  })
  const close = () => {
    if (!open) return
    open = false
    keepalive.stop()
    try {
      controller?.close()
    } catch {
      // already cancelled by a failed or aborted fetch
    }
  }
  send(
    streamInputEnvelope({
      case: 'start',
      value: { process: { selector: { case: 'pid', value: target.pid } } },
    }),
  )
  const headers: Record<string, string> = {
    'Content-Type': 'application/connect+json',
    'Connect-Protocol-Version': '1',
  }
  if (target.accessToken) headers['X-Access-Token'] = target.accessToken
  // `duplex` is not in every TypeScript DOM library yet; browsers that stream need it.
  const init: RequestInit & { duplex: 'half' } = {
    method: 'POST',
    headers,
    body,
    duplex: 'half',
    signal: abort.signal,
    redirect: 'error',
  }
  const result = fetchImpl(`${target.runtimeUrl.replace(/\/$/, '')}/process.Process/StreamInput`, init)
    .then(readStreamInputResponse)
    .finally(close)
  // The owner reads `result`; this keeps an early failure from being reported as unhandled.
  result.catch(() => {})
  return {
    write(data) {
      for (let at = 0; at < data.length; at += maxMessageBytes) {
        send(streamInputDataEnvelope(data.subarray(at, at + maxMessageBytes), target.input))
      }
    },
    finish() {
      close()
      return result
    },
    abort() {
      close()
      abort.abort()
    },
    result,
  }
}

/**
 * Whether this browser can send a ReadableStream as a fetch body (Chromium 105+ on desktop):
 * it reads `duplex` and does not turn the stream into text. It cannot see HTTP/1.1, where the
 * fetch then fails with a TypeError, so callers also need https and a fallback.
 */
export function supportsRequestStreams(): boolean {
  if (typeof ReadableStream === 'undefined' || typeof Request === 'undefined') return false
  let duplexRead = false
  try {
    const init = {
      method: 'POST',
      body: new ReadableStream(),
      get duplex() {
        duplexRead = true
        return 'half'
      },
    }
    // A browser that cannot stream turns the body into the text "[object ReadableStream]".
    const stringified = new Request('https://example.invalid/', init).headers.has('Content-Type')
    return duplexRead && !stringified
  } catch {
    return false
  }
}
