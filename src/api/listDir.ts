import { create, fromBinary, toBinary } from '@bufbuild/protobuf'
import { TimestampSchema } from '@bufbuild/protobuf/wkt'
import { appendHeaders } from '@connectrpc/connect'
import {
  errorFromJson,
  requestHeader,
  trailerDemux,
  validateResponse,
} from '@connectrpc/connect/protocol-connect'
import {
  type EntryInfo,
  EntryInfoSchema,
  Filesystem,
  ListDirRequestSchema,
  ListDirResponseSchema,
} from '../gen/filesystem_pb'
import type { RuntimeEndpoint } from './files'

// ListDir by hand: the same Connect unary call connect-web makes (its own helpers build the
// request's headers and read its errors), in protobuf's binary encoding, with the answer read by
// the decoder below. connect-web reads messages through protobuf's reflection: half a second or
// more for a folder of 100,000 entries here, where this reads the same bytes into the same
// messages in a tenth of that, and hands anything it does not expect to fromBinary. A big folder's
// answer comes as the runtime reads it (server/runtime/filesystem/streamedAnswer.ts): its entries
// are read as they arrive, so reading overlaps the runtime's work and the transfer.

/** Something this reader leaves to fromBinary: another field, another wire type, a repeat. */
class Unexpected extends Error {}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** Protobuf's wire primitives over one answer. */
class Reader {
  pos = 0
  constructor(readonly bytes: Uint8Array) {}

  /** A varint of at most 53 bits, as a number (tags, lengths, enums, uint32). */
  varint(): number {
    let value = 0
    let scale = 1
    for (let i = 0; i < 8; i++) {
      const byte = this.byte()
      value += (byte & 0x7f) * scale
      if (byte < 0x80) return value
      scale *= 0x80
    }
    throw new Unexpected()
  }

  /** A varint as protobuf's int64: all ten bytes, two's complement. */
  int64(): bigint {
    // Sizes and times fit in seven bytes: read as a number, made a bigint once.
    const start = this.pos
    let small = 0
    let scale = 1
    for (let i = 0; i < 7 && this.pos < this.bytes.length; i++) {
      const byte = this.bytes[this.pos++] as number
      small += (byte & 0x7f) * scale
      if (byte < 0x80) return BigInt(small)
      scale *= 0x80
    }
    this.pos = start
    let value = 0n
    let shift = 0n
    for (let i = 0; i < 10; i++) {
      const byte = this.byte()
      value |= BigInt(byte & 0x7f) << shift
      if (byte < 0x80) return BigInt.asIntN(64, value)
      shift += 7n
    }
    throw new Unexpected()
  }

  byte(): number {
    if (this.pos >= this.bytes.length) throw new Unexpected()
    return this.bytes[this.pos++] as number
  }

  /** The end of a length-delimited field that starts here. */
  delimited(): number {
    const length = this.varint()
    const end = this.pos + length
    if (end > this.bytes.length) throw new Unexpected()
    return end
  }

  /** An int32 (an enum, nanos) from its varint: the low 32 bits, signed, as protobuf reads them. */
  int32(): number {
    return (this.varint() % 2 ** 32) | 0
  }

  /**
   * A string field's text: plain ASCII read directly, anything else by a strict UTF-8 decoder.
   * With `last`, a field whose bytes are the same as the last time (an owner, a mode string)
   * gets the same string back, decoded once.
   */
  string(last?: { bytes: Uint8Array; text: string }): string {
    const end = this.delimited()
    const start = this.pos
    this.pos = end
    if (last && sameBytes(last.bytes, this.bytes, start, end)) return last.text
    const text = this.decode(start, end)
    if (last) {
      last.bytes = this.bytes.subarray(start, end)
      last.text = text
    }
    return text
  }

  private decode(start: number, end: number): string {
    let ascii = true
    for (let i = start; i < end; i++)
      if ((this.bytes[i] as number) >= 0x80) {
        ascii = false
        break
      }
    if (ascii && end - start <= 256)
      // apply, not a spread: spreading a typed array costs four times as much.
      return String.fromCharCode.apply(null, this.bytes.subarray(start, end) as unknown as number[])
    return strictUtf8.decode(this.bytes.subarray(start, end))
  }
}

function sameBytes(known: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (known.length !== end - start) return false
  for (let i = 0; i < known.length; i++) if (known[i] !== bytes[start + i]) return false
  return true
}

/** The last permissions, owner and group read: most entries of a listing share theirs. */
const repeated = () => ({
  permissions: { bytes: new Uint8Array(0), text: '' },
  owner: { bytes: new Uint8Array(0), text: '' },
  group: { bytes: new Uint8Array(0), text: '' },
})

const timestampTypeName = TimestampSchema.typeName
const entryTypeName = EntryInfoSchema.typeName

function readTimestamp(r: Reader, end: number) {
  let seconds = 0n
  let nanos = 0
  while (r.pos < end) {
    const tag = r.varint()
    if (tag === 0x08) seconds = r.int64()
    else if (tag === 0x10) nanos = r.int32()
    else throw new Unexpected()
  }
  if (r.pos !== end) throw new Unexpected()
  return { $typeName: timestampTypeName, seconds, nanos }
}

function readMapEntry(r: Reader, end: number, into: Record<string, string>): void {
  let key = ''
  let value = ''
  while (r.pos < end) {
    const tag = r.varint()
    if (tag === 0x0a) key = r.string()
    else if (tag === 0x12) value = r.string()
    else throw new Unexpected()
  }
  if (r.pos !== end) throw new Unexpected()
  into[key] = value
}

/** One EntryInfo, as fromBinary reads it, built as the plain object protobuf-es messages are. */
function readEntry(r: Reader, end: number, last: ReturnType<typeof repeated>): EntryInfo {
  const entry: EntryInfo = {
    $typeName: entryTypeName,
    name: '',
    type: 0,
    path: '',
    size: 0n,
    mode: 0,
    permissions: '',
    owner: '',
    group: '',
    metadata: {},
  }
  while (r.pos < end) {
    const tag = r.varint()
    switch (tag) {
      case 0x0a:
        entry.name = r.string()
        break
      case 0x10:
        entry.type = r.int32()
        break
      case 0x1a:
        entry.path = r.string()
        break
      case 0x20:
        entry.size = r.int64()
        break
      case 0x28:
        entry.mode = r.varint() % 2 ** 32
        break
      case 0x32:
        entry.permissions = r.string(last.permissions)
        break
      case 0x3a:
        entry.owner = r.string(last.owner)
        break
      case 0x42:
        entry.group = r.string(last.group)
        break
      case 0x4a:
        // A repeated message field merges; this reader leaves that to fromBinary.
        if (entry.modifiedTime) throw new Unexpected()
        entry.modifiedTime = readTimestamp(r, r.delimited())
        break
      case 0x52:
        entry.symlinkTarget = r.string()
        break
      case 0x5a:
        readMapEntry(r, r.delimited(), entry.metadata)
        break
      default:
        throw new Unexpected()
    }
  }
  if (r.pos !== end) throw new Unexpected()
  return entry
}

/**
 * The entries of a ListDirResponse in protobuf's binary encoding: equal to what `fromBinary`
 * makes of the same bytes (a test holds them equal), read without reflection; bytes of any
 * other shape go to fromBinary itself, which reads them or says what is wrong with them.
 */
export function entriesFromBinary(bytes: Uint8Array): EntryInfo[] {
  try {
    const r = new Reader(bytes)
    const entries: EntryInfo[] = []
    const last = repeated()
    while (r.pos < bytes.length) {
      if (r.varint() !== 0x0a) throw new Unexpected()
      entries.push(readEntry(r, r.delimited(), last))
    }
    return entries
  } catch (err) {
    if (!(err instanceof Unexpected) && !(err instanceof TypeError)) throw err
    return fromBinary(ListDirResponseSchema, bytes).entries
  }
}

/**
 * Where the fields of the entry whose header (field 1's tag, then its length) is at `pos` start
 * and end, or undefined when `bytes` stop before its last byte; another tag is Unexpected.
 */
function entryEnd(bytes: Uint8Array, pos: number): { start: number; end: number } | undefined {
  if (bytes[pos] !== 0x0a) throw new Unexpected()
  let length = 0
  let scale = 1
  for (let at = pos + 1; at < bytes.length && at < pos + 9; at++) {
    const byte = bytes[at] as number
    length += (byte & 0x7f) * scale
    if (byte < 0x80)
      return at + 1 + length <= bytes.length ? { start: at + 1, end: at + 1 + length } : undefined
    scale *= 0x80
  }
  if (bytes.length >= pos + 9) throw new Unexpected()
  return undefined
}

/**
 * A ListDirResponse read as its bytes arrive: each entry is read as soon as its last byte is
 * there (an entry or a character may be cut anywhere between two pieces), so once the answer's
 * last piece comes only its last entries are left to read. The entries equal entriesFromBinary's
 * of the whole; bytes of another shape are left to it, whole, at the end.
 */
export class ListingDecoder {
  private readonly entries: EntryInfo[] = []
  private readonly last = repeated()
  /** Every piece, for entriesFromBinary should the bytes turn out to be of another shape. */
  private readonly pieces: Uint8Array[] = []
  /** The bytes of an entry not whole yet. */
  private rest: Uint8Array = new Uint8Array(0)
  private otherShape = false

  push(piece: Uint8Array): void {
    this.pieces.push(piece)
    if (this.otherShape || piece.length === 0) return
    const bytes = this.rest.length === 0 ? piece : joined([this.rest, piece])
    const r = new Reader(bytes)
    try {
      for (;;) {
        if (r.pos >= bytes.length) break
        const entry = entryEnd(bytes, r.pos)
        if (!entry) break
        r.pos = entry.start
        this.entries.push(readEntry(r, entry.end, this.last))
      }
      this.rest = bytes.subarray(r.pos)
    } catch (err) {
      if (!(err instanceof Unexpected) && !(err instanceof TypeError)) throw err
      this.otherShape = true
    }
  }

  /** The entries, once every piece was pushed. */
  finish(): EntryInfo[] {
    if (!this.otherShape && this.rest.length === 0) return this.entries
    return entriesFromBinary(joined(this.pieces))
  }
}

function joined(pieces: readonly Uint8Array[]): Uint8Array {
  let length = 0
  for (const piece of pieces) length += piece.length
  const bytes = new Uint8Array(length)
  let at = 0
  for (const piece of pieces) {
    bytes.set(piece, at)
    at += piece.length
  }
  return bytes
}

/** The answer's entries, read as its body arrives (the browser has taken gzip off already). */
async function readListing(response: Response): Promise<EntryInfo[]> {
  const decoder = new ListingDecoder()
  if (!response.body) {
    decoder.push(new Uint8Array(await response.arrayBuffer()))
    return decoder.finish()
  }
  const reader = response.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return decoder.finish()
    decoder.push(value)
  }
}

/** `filesystem.Filesystem/ListDir` on a runtime: its entries, or the runtime's error as a ConnectError. */
export async function listDir(
  endpoint: RuntimeEndpoint,
  request: { path: string; depth: number },
  signal?: AbortSignal,
): Promise<EntryInfo[]> {
  const header = requestHeader('unary', true, undefined, undefined, false)
  if (endpoint.accessToken) header.set('X-Access-Token', endpoint.accessToken)
  const response = await fetch(`${endpoint.runtimeUrl}/${Filesystem.typeName}/ListDir`, {
    method: 'POST',
    headers: header,
    body: toBinary(ListDirRequestSchema, create(ListDirRequestSchema, request)),
    ...(signal ? { signal } : {}),
  })
  const { isUnaryError, unaryError } = validateResponse('unary', true, response.status, response.headers)
  if (isUnaryError)
    throw errorFromJson(await response.json(), appendHeaders(...trailerDemux(response.headers)), unaryError)
  return readListing(response)
}
