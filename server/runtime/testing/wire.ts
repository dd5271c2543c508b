// Byte-level helpers for protocol tests: build and split Connect envelopes by hand, so tests
// check what goes over the wire rather than what our own client makes of it.

/** One Connect streaming envelope as it arrived. */
export interface Envelope {
  flags: number
  /** The payload as text (JSON for connect+json). */
  text: string
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON, asserted on by the tests
  json: any
}

/** A Connect envelope: flags byte, 4-byte big-endian length, payload. */
export function envelope(payload: string | Uint8Array, flags = 0): Uint8Array<ArrayBuffer> {
  const data = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload
  const out = new Uint8Array(5 + data.length)
  out[0] = flags
  new DataView(out.buffer).setUint32(1, data.length, false)
  out.set(data, 5)
  return out
}

/** Splits a response body into envelopes; throws if the bytes do not frame exactly. */
export function splitEnvelopes(body: Uint8Array): Envelope[] {
  const out: Envelope[] = []
  let offset = 0
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  while (offset < body.length) {
    if (offset + 5 > body.length) throw new Error(`truncated envelope header at byte ${offset}`)
    const flags = body[offset] as number
    const length = view.getUint32(offset + 1, false)
    const end = offset + 5 + length
    if (end > body.length)
      throw new Error(`envelope at byte ${offset} claims ${length} bytes, has ${body.length - offset - 5}`)
    const text = new TextDecoder().decode(body.subarray(offset + 5, end))
    out.push({ flags, text, json: text ? JSON.parse(text) : undefined })
    offset = end
  }
  return out
}

/** POSTs a unary Connect+JSON call and returns status, headers and the raw body text. */
export async function postUnary(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Connect-Protocol-Version': '1', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined }
}

/**
 * POSTs a server-streaming call (one request envelope) and reads the response until it ends
 * or `until` says the envelopes so far are enough; returns the envelopes read.
 */
export async function postStream(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  until?: (envelopes: Envelope[]) => boolean,
) {
  const controller = new AbortController()
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/connect+json', 'Connect-Protocol-Version': '1', ...headers },
    body: envelope(JSON.stringify(body)),
    signal: controller.signal,
  })
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  let buffered = new Uint8Array(0)
  let envelopes: Envelope[] = []
  for (;;) {
    const { value, done } = await reader.read()
    if (value) {
      const merged = new Uint8Array(buffered.length + value.length)
      merged.set(buffered)
      merged.set(value, buffered.length)
      buffered = merged
      envelopes = splitComplete(buffered)
      if (until?.(envelopes)) {
        controller.abort()
        break
      }
    }
    if (done) break
  }
  return { status: res.status, headers: res.headers, envelopes, bytes: buffered }
}

function splitComplete(body: Uint8Array): Envelope[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  let offset = 0
  while (offset + 5 <= body.length && offset + 5 + view.getUint32(offset + 1, false) <= body.length) {
    offset += 5 + view.getUint32(offset + 1, false)
  }
  return splitEnvelopes(body.subarray(0, offset))
}
