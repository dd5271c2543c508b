import { Code, ConnectError } from '@connectrpc/connect'
import { codeFromHttpStatus } from '@connectrpc/connect/protocol-connect'
import { concatBytes } from './concatBytes'

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
 * a view of it, not a copy; only an envelope cut across pieces is put together.
 */
export class EnvelopeSplitter {
  private rest: Uint8Array | undefined
  private offset = 0

  /** The envelopes completed by `chunk`, in order. */
  push(chunk: Uint8Array): Envelope[] {
    const bytes = this.rest ? concatBytes([this.rest, chunk]) : chunk
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const out: Envelope[] = []
    let at = 0
    while (bytes.length - at >= 5) {
      const end = at + 5 + view.getUint32(at + 1, false)
      if (end > bytes.length) break
      out.push({ flags: bytes[at] as number, payload: bytes.subarray(at + 5, end) })
      at = end
    }
    this.offset += at
    this.rest = at < bytes.length ? bytes.slice(at) : undefined
    return out
  }

  /** The body ended: throws when it stopped inside an envelope. */
  end(): void {
    const rest = this.rest
    if (!rest) return
    if (rest.length < 5) throw new Error(`truncated envelope header at byte ${this.offset}`)
    throw new Error(`envelope at byte ${this.offset} is cut short`)
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
