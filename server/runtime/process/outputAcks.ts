import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendEnvdError } from '../accessToken'
import { invalidArgument } from '../errors'

/**
 * Acknowledged output, our addition to envd: a Start or Connect that sends `X-Output-Window: <bytes>`
 * gets `X-Output-Window` (the window granted) and `X-Output-Stream` (an id) back, and then
 * acknowledges the output it has handled with `POST /output-ack?stream=<id>&offset=<n>` (an
 * absolute offset, as in `X-Replay-From`). The process pauses while more than the window is
 * unacknowledged, so a client bounds everything in flight to it, sockets and browser included.
 */
export const outputWindowHeader = 'x-output-window'
export const outputStreamHeader = 'X-Output-Stream'
export const outputAckPath = '/output-ack'

/** Bounds of the window a client may ask for. */
const minWindowBytes = 64 * 1024
const maxWindowBytes = 16 * 1024 * 1024

/** The window a request asks for, clamped; undefined without the header. */
export function parseOutputWindow(header: string | null): number | undefined {
  if (header === null) return undefined
  if (!/^\d{1,15}$/.test(header.trim()))
    throw invalidArgument(`${outputWindowHeader} must be a number of bytes, not '${header}'`)
  return Math.min(Math.max(Number(header.trim()), minWindowBytes), maxWindowBytes)
}

/** The open streams that take acknowledgements, by id. */
export class AckedStreams {
  private readonly streams = new Map<string, (offset: number) => void>()

  /** Registers a stream's `ack`; returns its id and a function that forgets it. */
  add(ack: (offset: number) => void): { id: string; remove: () => void } {
    const id = randomUUID()
    this.streams.set(id, ack)
    return { id, remove: () => this.streams.delete(id) }
  }

  /** `POST /output-ack?stream=<id>&offset=<n>`: 204, or 400 / 404 with envd's error body. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST')
      sendEnvdError(res, 405, 'method not allowed: use POST')
      return
    }
    const offset = url.searchParams.get('offset') ?? ''
    if (!/^\d{1,15}$/.test(offset)) {
      sendEnvdError(res, 400, `offset must be a byte offset, not '${offset}'`)
      return
    }
    const ack = this.streams.get(url.searchParams.get('stream') ?? '')
    if (!ack) {
      sendEnvdError(res, 404, 'no such output stream: it ended, or never asked for a window')
      return
    }
    ack(Number(offset))
    res.writeHead(204, { 'Cache-Control': 'no-store' }).end()
  }
}
