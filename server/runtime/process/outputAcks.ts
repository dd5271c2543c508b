import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  maxOutputWindowBytes,
  minOutputWindowBytes,
  outputFlushHeader,
  outputWindowHeader,
} from '../../../src/contract/runtimeExtensions'
import { sendEnvdError } from '../accessToken'
import { invalidArgument, messageOf } from '../errors'

// Acknowledged output, our addition to envd (its names in src/contract/runtimeExtensions.ts): the
// offset of an acknowledgement travels in the body, so a stream's URL stays the same and a
// browser's CORS preflight is made once, not per ack. The process pauses while more than the
// window is unacknowledged, so a client bounds everything in flight to it, sockets and browser
// included. After a Ctrl-C that flushes (see ManagedProcess.input), the answer to an
// acknowledgement says `X-Output-Flush: <offset>`: the client may skip the output before it that
// it has not shown. An acknowledgement may carry `X-Output-Window` too: the window changes to it
// (clamped, the answer says to what), as the client learns how fast its link is.

/** The longest acknowledgement body: an offset in decimal, with room to spare. */
const maxAckBodyBytes = 64

/** The window a request asks for, clamped; undefined without the header. */
export function parseOutputWindow(header: string | null): number | undefined {
  if (header === null) return undefined
  if (!/^\d{1,15}$/.test(header.trim()))
    throw invalidArgument(`${outputWindowHeader} must be a number of bytes, not '${header}'`)
  return Math.min(Math.max(Number(header.trim()), minOutputWindowBytes), maxOutputWindowBytes)
}

/** The open streams that take acknowledgements, by id. */
export class AckedStreams {
  private readonly streams = new Map<string, Acknowledge>()

  /** Registers a stream's `ack`; returns its id and a function that forgets it. */
  add(ack: Acknowledge): { id: string; remove: () => void } {
    const id = randomUUID()
    this.streams.set(id, ack)
    return { id, remove: () => this.streams.delete(id) }
  }

  /**
   * `POST /output-ack?stream=<id>` with the offset as its body, and maybe a new window in
   * `X-Output-Window`: 204, or 400 / 404 / 405 with envd's error body.
   */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST')
      sendEnvdError(res, 405, 'method not allowed: use POST')
      return
    }
    const body = (await readSmallBody(req, maxAckBodyBytes))?.trim()
    if (body === undefined || !/^\d{1,15}$/.test(body)) {
      sendEnvdError(res, 400, 'the body must be a byte offset in decimal')
      return
    }
    let window: number | undefined
    try {
      window = parseOutputWindow(headerOf(req, outputWindowHeader))
    } catch (err) {
      sendEnvdError(res, 400, messageOf(err))
      return
    }
    const ack = this.streams.get(url.searchParams.get('stream') ?? '')
    if (!ack) {
      sendEnvdError(res, 404, 'no such output stream: it ended, or never asked for a window')
      return
    }
    const flushedTo = await ack(Number(body), window)
    if (flushedTo !== undefined) res.setHeader(outputFlushHeader, String(flushedTo))
    if (window !== undefined) res.setHeader(outputWindowHeader, String(window))
    res.writeHead(204, { 'Cache-Control': 'no-store' }).end()
  }
}

/** A stream's acknowledgement: the offset handled, maybe a new window; answers a flush's offset. */
type Acknowledge = (offset: number, window?: number) => Promise<number | undefined>

/** A request header's one value, or null when absent (repeated, the values joined, and so invalid). */
function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()]
  if (value === undefined) return null
  return Array.isArray(value) ? value.join(',') : value
}

/** The request body as text, or undefined when it is longer than `limit` bytes. */
async function readSmallBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  let text = ''
  for await (const chunk of req) {
    text += chunk
    if (text.length > limit) return undefined
  }
  return text
}
