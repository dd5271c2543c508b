import type { UnknownField } from '@bufbuild/protobuf'
import { WireType } from '@bufbuild/protobuf/wire'
import type { EntryInfo } from '../../../src/gen/filesystem_pb'

// A big listing in protobuf's binary encoding, written here: protobuf-es's toBinary goes through
// reflection for every field of every entry (over a second for 100,000 entries), where this
// writes the same bytes (a test holds them equal) in a tenth of that. connect-node still frames,
// compresses and sends the answer: the entries reach toBinary as the values of field 1 that it
// writes through as they are, see `preEncodedEntries`.

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER)

/** ListDirResponse's one field (filesystem.proto): its entries, repeated. */
export const entriesField = 1

/** EntryInfo's field numbers (filesystem.proto). */
export const entryField = {
  name: 1,
  type: 2,
  path: 3,
  size: 4,
  mode: 5,
  permissions: 6,
  owner: 7,
  group: 8,
  modifiedTime: 9,
  symlinkTarget: 10,
  metadata: 11,
} as const

/** google.protobuf.Timestamp's field numbers. */
export const timestampField = { seconds: 1, nanos: 2 } as const

/** The bytes a varint of `value` (a non-negative safe integer) takes. */
export function varintSize(value: number): number {
  let size = 1
  while (value >= 0x80) {
    value = Math.floor(value / 0x80)
    size++
  }
  return size
}

/** A growing buffer with protobuf's primitives. */
export class Writer {
  buf: Buffer
  pos = 0

  constructor(initialBytes = 1 << 16) {
    this.buf = Buffer.allocUnsafe(initialBytes)
  }

  room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes))
    this.buf.copy(grown, 0, 0, this.pos)
    this.buf = grown
  }

  varint(value: number): void {
    this.room(10)
    while (value >= 0x80) {
      this.buf[this.pos++] = (value % 0x80) | 0x80
      value = Math.floor(value / 0x80)
    }
    this.buf[this.pos++] = value
  }

  int64(value: bigint): void {
    if (value >= 0n && value <= maxSafe) {
      this.varint(Number(value))
      return
    }
    let unsigned = BigInt.asUintN(64, value)
    this.room(10)
    while (unsigned >= 0x80n) {
      this.buf[this.pos++] = Number(unsigned & 0x7fn) | 0x80
      unsigned >>= 7n
    }
    this.buf[this.pos++] = Number(unsigned)
  }

  /** `src[from..to)` as they are, where `room` was made: a loop, as most are a few bytes (a name). */
  copy(src: Uint8Array, from = 0, to = src.length): void {
    const buf = this.buf
    let pos = this.pos
    for (let i = from; i < to; i++) buf[pos++] = src[i] as number
    this.pos = pos
  }

  tag(field: number, wireType: WireType): void {
    this.varint((field << 3) | wireType)
  }

  /** A varint field, left out where it is 0 (proto3's default), as toBinary does. */
  varintField(field: number, value: number): void {
    if (value === 0) return
    this.tag(field, WireType.Varint)
    this.varint(value)
  }

  /** A string field, left out where it is empty. */
  stringField(field: number, text: string): void {
    if (text !== '') this.string(field, text)
  }

  /** A bytes field of `src[from..to)` (text already in UTF-8), left out where it is empty. */
  bytesField(field: number, src: Uint8Array, from = 0, to = src.length): void {
    if (to === from) return
    this.tag(field, WireType.LengthDelimited)
    this.varint(to - from)
    this.room(to - from)
    this.copy(src, from, to)
  }

  string(field: number, text: string): void {
    this.tag(field, WireType.LengthDelimited)
    this.delimited(text.length * 3, () => {
      this.pos += this.buf.write(text, this.pos, 'utf8')
    })
  }

  /**
   * A length-delimited value written by `write`, at most `maxBytes` long: written first, behind
   * one byte for its length (most are shorter than 128 bytes), then moved along where the length
   * takes more, so each value is written once and never measured beforehand.
   */
  delimited(maxBytes: number, write: () => void): void {
    this.room(maxBytes + 10)
    const start = ++this.pos
    write()
    const length = this.pos - start
    const lengthBytes = varintSize(length)
    if (lengthBytes > 1) {
      this.room(lengthBytes)
      this.buf.copyWithin(start + lengthBytes - 1, start, this.pos)
      this.pos += lengthBytes - 1
    }
    let at = start - 1
    let value = length
    while (value >= 0x80) {
      this.buf[at++] = (value % 0x80) | 0x80
      value = Math.floor(value / 0x80)
    }
    this.buf[at] = value
  }
}

/** The most an EntryInfo's fields take, for `Writer.delimited`: UTF-8 is at most 3 bytes a UTF-16 unit. */
function entryMaxBytes(e: EntryInfo): number {
  let strings = e.name.length + e.path.length + e.permissions.length + e.owner.length + e.group.length
  strings += e.symlinkTarget?.length ?? 0
  let bytes = 3 * strings + 8 * 10 + 40
  for (const [key, value] of Object.entries(e.metadata)) bytes += 3 * (key.length + value.length) + 30
  return bytes
}

function writeEntry(w: Writer, e: EntryInfo): void {
  w.stringField(entryField.name, e.name)
  w.varintField(entryField.type, e.type)
  w.stringField(entryField.path, e.path)
  if (e.size !== 0n) {
    w.tag(entryField.size, WireType.Varint)
    w.int64(e.size)
  }
  w.varintField(entryField.mode, e.mode)
  w.stringField(entryField.permissions, e.permissions)
  w.stringField(entryField.owner, e.owner)
  w.stringField(entryField.group, e.group)
  const time = e.modifiedTime
  if (time) {
    w.tag(entryField.modifiedTime, WireType.LengthDelimited)
    w.delimited(22, () => {
      if (time.seconds !== 0n) {
        w.tag(timestampField.seconds, WireType.Varint)
        w.int64(time.seconds)
      }
      w.varintField(timestampField.nanos, time.nanos)
    })
  }
  if (e.symlinkTarget !== undefined) w.string(entryField.symlinkTarget, e.symlinkTarget)
  for (const [key, value] of Object.entries(e.metadata)) {
    w.tag(entryField.metadata, WireType.LengthDelimited)
    w.delimited(3 * (key.length + value.length) + 20, () => {
      w.string(1, key)
      w.string(2, value)
    })
  }
}

/**
 * The entries as `ListDirResponse.$unknown`: toBinary writes an unknown field as its tag, then
 * its bytes as they are, after the known fields; `entries` (left empty) is the message's only
 * field. So one "unknown" field 1 whose bytes are the first entry's length and fields, then
 * every other entry with its own tag, makes exactly the bytes of the message with its entries
 * set (a test holds them equal), in one buffer. A JSON answer is made from the entries themselves;
 * one of a listing read in chunks, from the chunks' bytes (listingJson.ts).
 */
export function preEncodedEntries(entries: readonly EntryInfo[]): UnknownField[] {
  return asUnknownEntries(encodeEntries(entries))
}

/** Entries already written as a ListDirResponse's bytes (encodeEntries), as preEncodedEntries gives them. */
export function asUnknownEntries(bytes: Uint8Array): UnknownField[] {
  if (bytes.length === 0) return []
  // Its first byte is field 1's tag, which toBinary writes itself.
  return [{ no: entriesField, wireType: WireType.LengthDelimited, data: bytes.subarray(1) }]
}

/** One entry as field 1 of a ListDirResponse: its tag, length and fields. */
export function writeEntryField(w: Writer, entry: EntryInfo): void {
  w.tag(entriesField, WireType.LengthDelimited)
  w.delimited(entryMaxBytes(entry), () => writeEntry(w, entry))
}

/**
 * The entries as a ListDirResponse's bytes: each one field 1, tag, length and fields. A
 * ListDirResponse has no other field, so the bytes of chunks of entries written one after the
 * other are the bytes of the answer with all of them, which is how a big listing is streamed.
 */
export function encodeEntries(entries: readonly EntryInfo[]): Buffer {
  const w = new Writer()
  for (const entry of entries) writeEntryField(w, entry)
  return w.buf.subarray(0, w.pos)
}
