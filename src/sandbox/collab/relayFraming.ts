/**
 * Messages over the collaboration relay: a process in the sandbox that repeats its stdin on its
 * stdout (`cat`), heard by every page connected to it. Bytes from several pages meet there, and
 * anyone who can reach the sandbox can write anything, so the framing is plain text lines that a
 * reader can resynchronise on and check: `Y1 <sender> <id> <index>/<count> <topic> <base64>`,
 * one line per chunk of at most `chunkBytes`, the topic percent-encoded (paths hold spaces and
 * newlines). Each page's writes reach the relay whole (one SendInput each, written in one piece),
 * so a line is never cut by another page's; chunks of one message may be, and are put together
 * again by sender and id. Anything malformed or over the bounds is dropped and counted.
 */

/** One message: who sent it, what it is about (a document, presence), and its bytes. */
export interface RelayMessage {
  sender: string
  topic: string
  payload: Uint8Array
}

/** Bytes of payload per line. */
export const chunkBytes = 24 * 1024
/** The largest message put together; a document over it is not shared. */
export const maxMessageBytes = 16 * 1024 * 1024
/** Lines longer than this are no frame of ours. */
const maxLineBytes = Math.ceil((chunkBytes * 4) / 3) + 4096
/** Messages being put together at once, all senders together. */
const maxPartial = 64

const senderPattern = /^[A-Za-z0-9_-]{1,64}$/
const encoder = new TextEncoder()
const decoder = new TextDecoder()

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  // apply() takes the typed array as it is; a spread would walk it through an iterator, 50 times slower.
  for (let i = 0; i < bytes.length; i += 0x2000)
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x2000) as unknown as number[])
  return btoa(binary)
}

function fromBase64(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return bytes
  } catch {
    return undefined
  }
}

/** The lines that carry one message, each ending in a newline, ready to write one by one or all at once. */
export function encodeMessage(sender: string, id: number, topic: string, payload: Uint8Array): Uint8Array[] {
  if (!senderPattern.test(sender)) throw new Error(`not a sender name: ${sender}`)
  if (payload.length > maxMessageBytes)
    throw new Error(`a message of ${payload.length} bytes is over the relay's bound`)
  const count = Math.max(1, Math.ceil(payload.length / chunkBytes))
  const head = `Y1 ${sender} ${id} `
  const name = encodeURIComponent(topic)
  return Array.from({ length: count }, (_, index) =>
    encoder.encode(
      `${head}${index}/${count} ${name} ${toBase64(payload.subarray(index * chunkBytes, (index + 1) * chunkBytes))}\n`,
    ),
  )
}

interface Partial {
  topic: string
  chunks: (Uint8Array | undefined)[]
  received: number
}

/** Reads the relay's output: lines to chunks to messages. */
export class RelayReader {
  /** Lines and chunks dropped as malformed or over a bound. */
  dropped = 0
  private pending: Uint8Array[] = []
  private pendingBytes = 0
  private skipping = false
  private readonly partial = new Map<string, Partial>()

  constructor(private readonly deliver: (message: RelayMessage) => void) {}

  /** Bytes of the relay's stdout, as they arrive. */
  push(bytes: Uint8Array): void {
    let start = 0
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, start)) {
      this.take(bytes.subarray(start, at), true)
      start = at + 1
    }
    if (start < bytes.length) this.take(bytes.subarray(start), false)
  }

  private take(piece: Uint8Array, ends: boolean): void {
    if (!this.skipping) {
      if (this.pendingBytes + piece.length > maxLineBytes) {
        this.dropped++
        this.skipping = true
        this.pending = []
        this.pendingBytes = 0
      } else {
        this.pending.push(piece.slice())
        this.pendingBytes += piece.length
      }
    }
    if (!ends) return
    if (!this.skipping) {
      const line = new Uint8Array(this.pendingBytes)
      let at = 0
      for (const part of this.pending) {
        line.set(part, at)
        at += part.length
      }
      this.line(decoder.decode(line))
    }
    this.skipping = false
    this.pending = []
    this.pendingBytes = 0
  }

  private line(text: string): void {
    const fields = text.split(' ')
    const [magic, sender, id, position, name, data] = fields
    const [index, count] = (position ?? '').split('/').map(Number)
    let topic: string | undefined
    try {
      topic = name === undefined ? undefined : decodeURIComponent(name)
    } catch {}
    const payload = data === undefined ? undefined : fromBase64(data)
    if (
      fields.length !== 6 ||
      magic !== 'Y1' ||
      !senderPattern.test(sender ?? '') ||
      !/^\d{1,15}$/.test(id ?? '') ||
      index === undefined ||
      count === undefined ||
      !Number.isInteger(index) ||
      !Number.isInteger(count) ||
      count < 1 ||
      count > Math.ceil(maxMessageBytes / chunkBytes) ||
      index < 0 ||
      index >= count ||
      topic === undefined ||
      !payload ||
      payload.length > chunkBytes
    ) {
      this.dropped++
      return
    }
    if (count === 1) {
      this.deliver({ sender: sender as string, topic, payload })
      return
    }
    const key = `${sender} ${id}`
    let partial = this.partial.get(key)
    if (!partial) {
      if (this.partial.size >= maxPartial) {
        // The oldest message being put together gives way (its sender went, or lies).
        const oldest = this.partial.keys().next().value as string
        this.partial.delete(oldest)
        this.dropped++
      }
      partial = { topic, chunks: new Array(count).fill(undefined), received: 0 }
      this.partial.set(key, partial)
    }
    if (partial.chunks.length !== count || partial.topic !== topic || partial.chunks[index]) {
      this.dropped++
      return
    }
    partial.chunks[index] = payload
    partial.received++
    if (partial.received < count) return
    this.partial.delete(key)
    const size = partial.chunks.reduce((sum, c) => sum + (c?.length ?? 0), 0)
    const whole = new Uint8Array(size)
    let at = 0
    for (const chunk of partial.chunks as Uint8Array[]) {
      whole.set(chunk, at)
      at += chunk.length
    }
    this.deliver({ sender: sender as string, topic, payload: whole })
  }
}
