import { Code, ConnectError } from '@connectrpc/connect'
import { codeFromHttpStatus } from '@connectrpc/connect/protocol-connect'
import { concatBytes } from '../common/concatBytes'

// The few pieces of the Connect streaming protocol the hand-written calls need (connect-web
// cannot send a client stream, and reads server streams a message at a time through several
// async steps each, which a terminal flood pays for on the page's main thread).

/** Connect envelope flag of a stream's last envelope: end of stream, with any error. */
export const endStreamFlag = 0x02

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

/** Splits a whole body into envelopes; throws when the bytes do not frame exactly. */
export function decodeEnvelopes(body: Uint8Array): Envelope[] {
  const splitter = new EnvelopeSplitter()
  const out = splitter.push(body)
  splitter.end()
  return out
}

/**
 * Splits a body that arrives in pieces into envelopes. A payload that lies within one piece is
 * a view of it, not a copy. An envelope cut across pieces is held as views of them until its
 * last byte arrives, then copied once, at its own size: a terminal flood's envelopes are large
 * and its pieces cut them anywhere, and copying what is held at every piece would copy each
 * byte many times, in fresh large buffers that the page's allocator maps and unmaps.
 */
export class EnvelopeSplitter {
  /** The start of an envelope not complete yet, as views of the pieces that brought it. */
  private held: Uint8Array[] = []
  private heldBytes = 0
  /** Where the next envelope starts in the body, for error messages. */
  private offset = 0

  /** The envelopes completed by `chunk`, in order. */
  push(chunk: Uint8Array): Envelope[] {
    const out: Envelope[] = []
    let at = 0
    if (this.heldBytes > 0) {
      this.held.push(chunk)
      this.heldBytes += chunk.length
      const size = this.heldSize()
      if (size === undefined || this.heldBytes < size) return out
      // Everything held before `chunk` belongs to this envelope; `chunk` brings the rest.
      at = size - (this.heldBytes - chunk.length)
      const envelope = concatBytes([...this.held.slice(0, -1), chunk.subarray(0, at)])
      out.push({ flags: envelope[0] as number, payload: envelope.subarray(5) })
      this.offset += size
      this.held = []
      this.heldBytes = 0
    }
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    while (chunk.length - at >= 5) {
      const end = at + 5 + view.getUint32(at + 1, false)
      if (end > chunk.length) break
      out.push({ flags: chunk[at] as number, payload: chunk.subarray(at + 5, end) })
      this.offset += end - at
      at = end
    }
    if (at < chunk.length) {
      this.held = [chunk.subarray(at)]
      this.heldBytes = chunk.length - at
    }
    return out
  }

  /** The body ended: throws when it stopped inside an envelope. */
  end(): void {
    if (this.heldBytes === 0) return
    if (this.heldBytes < 5) throw new Error(`truncated envelope header at byte ${this.offset}`)
    throw new Error(`envelope at byte ${this.offset} is cut short`)
  }

  /** The held envelope's whole size, once its 5-byte header is in. */
  private heldSize(): number | undefined {
    if (this.heldBytes < 5) return undefined
    const header = new Uint8Array(5)
    let filled = 0
    for (const piece of this.held) {
      if (filled === 5) break
      const part = piece.subarray(0, 5 - filled)
      header.set(part, filled)
      filled += part.length
    }
    return 5 + new DataView(header.buffer).getUint32(1, false)
  }
}

/** A Connect code from its wire name (`invalid_argument`); Unknown for anything else. */
export function codeFromName(name: unknown): Code {
  if (typeof name !== 'string') return Code.Unknown
  const key = name
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('') as keyof typeof Code
  return typeof Code[key] === 'number' ? Code[key] : Code.Unknown
}

/** The error an end-of-stream message carries, if any. */
export function endStreamError(payload: Uint8Array): ConnectError | undefined {
  const json = JSON.parse(new TextDecoder().decode(payload) || '{}') as {
    error?: { code?: unknown; message?: unknown }
  }
  if (!json.error) return undefined
  const message = typeof json.error.message === 'string' ? json.error.message : ''
  return new ConnectError(message, codeFromName(json.error.code))
}

/** What a call that failed at the HTTP level says: its status, and the message of a JSON body (router, runtime). */
export async function httpErrorMessage(response: Response): Promise<string> {
  const message = `HTTP ${response.status}`
  try {
    const json = JSON.parse(await response.text()) as { message?: unknown }
    return typeof json.message === 'string' ? `${message}: ${json.message}` : message
  } catch {
    return message // not JSON: the status says enough
  }
}

/** A call that failed at the HTTP level (a router's 502, a runtime's 401), as a Connect error. */
export async function httpError(response: Response): Promise<ConnectError> {
  return new ConnectError(await httpErrorMessage(response), codeFromHttpStatus(response.status))
}
