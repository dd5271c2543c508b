import { create, fromBinary, type MessageInitShape, toBinary } from '@bufbuild/protobuf'
import { Code, ConnectError } from '@connectrpc/connect'
import {
  ConnectRequestSchema,
  ConnectResponseSchema,
  type ProcessEvent,
  StartRequestSchema,
  StartResponseSchema,
} from '../gen/process_pb'
import { EnvelopeSplitter, encodeEnvelope, endStreamError, endStreamFlag, httpError } from './connectEnvelope'
import type { RuntimeEndpoint } from './files'

/** A Start (a new process) or a Connect (one that runs), as the terminal reads them. */
export type ProcessStreamRequest =
  | { method: 'Start'; message: MessageInitShape<typeof StartRequestSchema> }
  | { method: 'Connect'; message: MessageInitShape<typeof ConnectRequestSchema> }

export interface ProcessStreamOptions {
  headers?: Record<string, string>
  signal: AbortSignal
  /** The response's headers, before any event. */
  onHeaders?: (headers: Headers) => void
  /** Each event, in order, as its bytes arrive. */
  onEvent: (event: ProcessEvent) => void
  /** Awaited after each event: reading (and so the runtime) waits while it is pending. */
  room: () => Promise<void>
}

/**
 * Reads a process's events from `process.Process/Start` or `/Connect` (Connect protocol,
 * binary). Events are handed over as each piece of the body is split, with one wait for room
 * each rather than several async steps per message: a terminal flood's stream costs the page's
 * main thread little beside what xterm needs. Resolves when the stream ends well;
 * rejects with a ConnectError (Canceled when `signal` aborts).
 */
export async function readProcessStream(
  endpoint: RuntimeEndpoint,
  request: ProcessStreamRequest,
  { headers = {}, signal, onHeaders, onEvent, room }: ProcessStreamOptions,
): Promise<void> {
  const body =
    request.method === 'Start'
      ? toBinary(StartRequestSchema, create(StartRequestSchema, request.message))
      : toBinary(ConnectRequestSchema, create(ConnectRequestSchema, request.message))
  const responseSchema = request.method === 'Start' ? StartResponseSchema : ConnectResponseSchema
  // The call's own signal: a stream this function gives up on (a bad message, a failing
  // `onEvent`) must close its connection, or the runtime keeps a subscriber that reads nothing.
  const call = new AbortController()
  const stop = () => call.abort()
  signal.addEventListener('abort', stop, { once: true })
  // Waiting for room ends too when the call does.
  const ended = new Promise<never>((_, reject) => {
    call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true })
  })
  ended.catch(() => {})
  try {
    const fetchCall = endpoint.streamFetch ?? fetch
    const response = await fetchCall(`${endpoint.runtimeUrl}/process.Process/${request.method}`, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': 'application/connect+proto',
        'Connect-Protocol-Version': '1',
        ...(endpoint.accessToken ? { 'X-Access-Token': endpoint.accessToken } : {}),
      },
      body: encodeEnvelope(body),
      signal: call.signal,
      redirect: 'error',
    })
    if (response.status !== 200) throw await httpError(response)
    const type = response.headers.get('Content-Type')
    if (type !== 'application/connect+proto') {
      throw new ConnectError(`unexpected content type ${type} from ${request.method}`, Code.Internal)
    }
    onHeaders?.(response.headers)
    const splitter = new EnvelopeSplitter()
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      for (const { flags, payload } of splitter.push(value)) {
        if (flags & endStreamFlag) {
          const error = endStreamError(payload)
          if (error) throw error
          return
        }
        const { event } = fromBinary(responseSchema, payload)
        if (event) onEvent(event)
        // Per event, not per piece: a piece may hold megabytes after a pause, and the
        // terminal's queue stays bounded only if it is asked before each.
        await Promise.race([room(), ended])
      }
    }
    splitter.end()
    throw new ConnectError(`${request.method} ended without its end-of-stream message`, Code.Unavailable)
  } catch (err) {
    if (signal.aborted) throw new ConnectError('the stream was closed', Code.Canceled)
    throw err instanceof ConnectError ? err : ConnectError.from(err, Code.Unavailable)
  } finally {
    signal.removeEventListener('abort', stop)
    call.abort()
  }
}
