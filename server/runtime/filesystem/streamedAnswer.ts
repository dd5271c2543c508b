import { setImmediate } from 'node:timers/promises'
import { constants, createGzip } from 'node:zlib'
import {
  type ConnectRouter,
  type ContextValues,
  createContextKey,
  createContextValues,
  type HandlerContext,
} from '@connectrpc/connect'
import type { UniversalServerRequest } from '@connectrpc/connect/protocol'
import { Filesystem } from '../../../src/gen/filesystem_pb'

// A big ListDir answer sent as it is read. connect-node answers a unary call once its message is
// whole (framed, compressed, with its Content-Length), so a folder of 100,000 entries left the
// runtime only after the last entry's lstat. A ListDirResponse is nothing but its entries (field 1,
// repeated), so entries written in order as they are read make the same bytes; the Connect unary
// protocol allows a body of unknown length. connect-node still does everything up to the answer
// (routing, the token's user, content types, timeouts, errors): the implementation returns an empty
// message and hands its bytes here, and the ListDir handler sends them in place of that message's.
// A JSON answer (the SDKs') is sent the same way, its text made from the same chunks (listingJson.ts).

/** A Node request (HTTP/1.1 or HTTP/2): its connection is what a failed answer cuts. */
type Request = { readonly socket: { destroy(): unknown } }

/** Where ListDir's implementation leaves the bytes of an answer sent as it is read. */
interface AnswerSlot {
  /** The call's request, whose connection is cut when the answer fails after its first bytes. */
  request: Request
  body?: AsyncGenerator<Uint8Array, void, undefined>
}

const answerKey = createContextKey<AnswerSlot | undefined>(undefined, { description: 'streamed answer' })

/** connect-node's `contextValues`: every call gets a slot for an answer sent as it is read. */
export function streamedAnswerValues(request: Request): ContextValues {
  return createContextValues().set(answerKey, { request })
}

/** Whether this call's answer can be sent as it is read: a Connect unary call, in protobuf's binary encoding or JSON. */
export function canStreamAnswer(ctx: HandlerContext): boolean {
  return (
    ctx.values.get(answerKey) !== undefined &&
    ctx.protocolName === 'connect' &&
    /^application\/(proto|json)$/i.test(ctx.responseHeader.get('content-type') ?? '')
  )
}

/**
 * Sends `body` (the answer's message bytes, in pieces) as this call's answer, in place of the
 * (empty) message the implementation returns. Only where canStreamAnswer said so.
 */
export function streamAnswer(ctx: HandlerContext, body: AsyncGenerator<Uint8Array, void, undefined>): void {
  const slot = ctx.values.get(answerKey)
  if (!slot) throw new Error('streamAnswer without the runtime’s context values')
  slot.body = body
}

/**
 * Gzip for this answer: the request accepts it, or sends gzip and says nothing of what it accepts,
 * as connect-node negotiates (gzip is all the runtime offers, as envd).
 */
function answersInGzip(req: UniversalServerRequest): boolean {
  const accepted = req.header.get('accept-encoding')
  if (accepted === null || accepted === '') return req.header.get('content-encoding') === 'gzip'
  return accepted.split(',').some((name) => name.trim() === 'gzip')
}

/**
 * The pieces gzip-compressed as one gzip stream, flushed after each (Z_SYNC_FLUSH, which keeps
 * the compression's dictionary), so each piece leaves compressed at once, not when zlib's buffer fills.
 */
async function* gzipFlushed(pieces: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
  const gzip = createGzip()
  const out: Buffer[] = []
  gzip.on('data', (bytes: Buffer) => out.push(bytes))
  let failure: Error | undefined
  gzip.on('error', (err) => {
    failure = err
  })
  const compressed = async () => {
    // Flowing data is emitted from the stream's own ticks: they all run before an immediate.
    await setImmediate()
    if (failure) throw failure
    return Buffer.concat(out.splice(0))
  }
  try {
    for await (const piece of pieces) {
      gzip.write(piece)
      await new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()))
      const bytes = await compressed()
      if (bytes.length > 0) yield bytes
    }
    const ended = new Promise<void>((resolve) => gzip.once('end', resolve).once('error', () => resolve()))
    gzip.end()
    await ended
    yield await compressed()
  } finally {
    gzip.destroy()
  }
}

/** The answer's bytes; when they fail after the first were sent, the connection is cut, so no client takes a shorter list for the whole. */
async function* cutOnFailure(
  body: AsyncIterable<Uint8Array>,
  request: Request,
): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    yield* body
  } catch (err) {
    request.socket.destroy()
    throw err
  }
}

/**
 * Makes the router's ListDir handler send an answer the implementation streamed (streamAnswer):
 * connect-node's status and headers, without Content-Length, with Content-Encoding gzip where it
 * would have compressed, then the bytes as they come. Any other answer goes out as connect-node made it.
 */
export function sendStreamedListDirAnswers(router: ConnectRouter): void {
  const at = router.handlers.findIndex((h) => h.method === Filesystem.method.listDir)
  const handler = router.handlers[at]
  if (!handler) throw new Error('the router has no ListDir handler')
  router.handlers[at] = Object.assign(async (req: UniversalServerRequest) => {
    const answer = await handler(req)
    const slot = req.contextValues?.get(answerKey)
    const body = slot?.body
    if (!slot || !body) return answer
    if (answer.status !== 200) {
      await body.return()
      return answer
    }
    const header = new Headers(answer.header)
    header.delete('content-length')
    const gzip = answersInGzip(req)
    if (gzip) header.set('content-encoding', 'gzip')
    return { ...answer, header, body: cutOnFailure(gzip ? gzipFlushed(body) : body, slot.request) }
  }, handler)
}
