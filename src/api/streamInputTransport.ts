import { create, type MessageInitShape, toJsonString } from '@bufbuild/protobuf'
import { Code, ConnectError } from '@connectrpc/connect'
import { StreamInputRequestSchema } from '../gen/process_pb'

// connect-web cannot send a client stream (connect-es#669), so StreamInput is written here by
// hand: one fetch whose body is a ReadableStream of Connect envelopes. Browsers allow that only
// in Chromium, only over HTTP/2 (so HTTPS), and only half duplex: the answer comes once the
// body has ended, which is also the only time StreamInput says what it accepted.

/** Connect envelope flag of the response's last envelope: end of stream, with any error. */
export const endStreamFlag = 0x02

/** Largest data message; a bigger write goes out as several, in order. */
export const maxMessageBytes = 64 * 1024

/** One Connect envelope: 1 flag byte, 4-byte big-endian length, payload. */
export function encodeEnvelope(payload: Uint8Array, flags = 0): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(5 + payload.length)
  out[0] = flags
  new DataView(out.buffer).setUint32(1, payload.length, false)
  out.set(payload, 5)
  return out
}

/** An envelope as read back. */
export interface Envelope {
  flags: number
  payload: Uint8Array
}

/** Splits a body into envelopes; throws when the bytes do not frame exactly. */
export function decodeEnvelopes(body: Uint8Array): Envelope[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  const out: Envelope[] = []
  let offset = 0
  while (offset < body.length) {
    if (offset + 5 > body.length) throw new Error(`truncated envelope header at byte ${offset}`)
    const length = view.getUint32(offset + 1, false)
    const end = offset + 5 + length
    if (end > body.length) throw new Error(`envelope at byte ${offset} is cut short`)
    out.push({ flags: body[offset] as number, payload: body.subarray(offset + 5, end) })
    offset = end
  }
  return out
}

/** A StreamInput request message as one JSON envelope (protojson: bytes as base64). */
export function streamInputEnvelope(
  event: MessageInitShape<typeof StreamInputRequestSchema>['event'],
): Uint8Array {
  const json = toJsonString(StreamInputRequestSchema, create(StreamInputRequestSchema, { event }))
  return encodeEnvelope(new TextEncoder().encode(json))
}

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

function codeFromName(name: unknown): Code {
  if (typeof name !== 'string') return Code.Unknown
  const key = name
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('') as keyof typeof Code
  return typeof Code[key] === 'number' ? Code[key] : Code.Unknown
}

/** The call's outcome from its response: resolves on success, throws the server's error. */
export async function readStreamInputResponse(response: Response): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer())
  if (response.status !== 200) {
    // The router's and the runtime's HTTP errors are JSON with a message; say it as they did.
    let message = `HTTP ${response.status}`
    try {
      const json = JSON.parse(new TextDecoder().decode(body)) as { message?: unknown }
      if (typeof json.message === 'string') message = `${message}: ${json.message}`
    } catch {
      // not JSON: the status says enough
    }
    throw new StreamInputHttpError(response.status, message)
  }
  const end = decodeEnvelopes(body).find((e) => (e.flags & endStreamFlag) !== 0)
  if (!end) throw new ConnectError('StreamInput ended without its end-of-stream message', Code.Unknown)
  const json = JSON.parse(new TextDecoder().decode(end.payload) || '{}') as {
    error?: { code?: unknown; message?: unknown }
  }
  if (json.error) {
    const message = typeof json.error.message === 'string' ? json.error.message : ''
    throw new ConnectError(message, codeFromName(json.error.code))
  }
}

/** Where a StreamInput call goes. */
export interface StreamInputTarget {
  runtimeUrl: string
  accessToken: string | null
  pid: number
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
  const { keepaliveMs = 30_000, fetch: fetchImpl = globalThis.fetch.bind(globalThis) } = options
  const abort = new AbortController()
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined
  let open = true
  let keepalive: ReturnType<typeof setTimeout> | undefined
  const send = (envelope: Uint8Array) => {
    if (!open) return
    try {
      controller?.enqueue(envelope)
    } catch {
      // fetch let go of the body (it failed or was aborted); `result` says why.
      return
    }
    clearTimeout(keepalive)
    keepalive = setTimeout(() => send(streamInputEnvelope({ case: 'keepalive', value: {} })), keepaliveMs)
  }
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
    },
  })
  const close = () => {
    if (!open) return
    open = false
    clearTimeout(keepalive)
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
        const value = data.subarray(at, at + maxMessageBytes)
        send(streamInputEnvelope({ case: 'data', value: { input: { input: { case: 'pty', value } } } }))
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
