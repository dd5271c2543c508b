import { BinaryReader, WireType } from '@bufbuild/protobuf/wire'
import { FileType } from '../../../src/gen/filesystem_pb'
import { entriesField, entryField, timestampField, Writer } from './listingBinary'

// A big listing in Connect's JSON, as the SDKs ask for it, made from the bytes the binary answer
// is already made of (nativeChunkBinary.ts): protobuf-es's toJson goes through reflection for
// every field of every entry, which made ListDir of 100,000 entries as JSON three times as slow as
// `ls -la`. The text is toJsonString's, byte for byte (a test holds them equal): fields in their
// order in filesystem.proto, lowerCamelCase names, defaults left out, the int64 size as a string,
// the type by its enum name, the time as RFC 3339 with 0, 3, 6 or 9 digits of a second.

/** The JSON of each FileType: its name, quoted. */
const fileTypeNames: Record<number, string> = {
  [FileType.FILE]: '"FILE_TYPE_FILE"',
  [FileType.DIRECTORY]: '"FILE_TYPE_DIRECTORY"',
  [FileType.SYMLINK]: '"FILE_TYPE_SYMLINK"',
}

const earliest = Date.parse('0001-01-01T00:00:00Z')
const latest = Date.parse('9999-12-31T23:59:59Z')

/** The seconds of the last time written, and its text up to the seconds: files made together share them. */
let lastSeconds: bigint | string | undefined
let lastSecondsText = ''

function timestampJson(seconds: bigint | string, nanos: number): string {
  if (seconds !== lastSeconds) {
    const ms = Number(seconds) * 1000
    if (ms < earliest || ms > latest) throw new Error(`a modification time out of JSON's range: ${seconds} s`)
    lastSecondsText = new Date(ms).toISOString().slice(0, -5)
    lastSeconds = seconds
  }
  if (nanos < 0 || nanos > 999_999_999) throw new Error(`a modification time with ${nanos} ns`)
  if (nanos === 0) return `"${lastSecondsText}Z"`
  const digits = String(nanos + 1_000_000_000).slice(1)
  const fraction = digits.endsWith('000000')
    ? digits.slice(0, 3)
    : digits.endsWith('000')
      ? digits.slice(0, 6)
      : digits
  return `"${lastSecondsText}.${fraction}Z"`
}

/** Where a length-delimited field ends, the reader at its first byte. */
function fieldEnd(r: BinaryReader): number {
  const end = r.uint32() + r.pos
  if (end > r.len) throw new Error('a listing cut short in a field')
  return end
}

/** UTF-8 bytes `[start, end)` as a string. */
function utf8(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8')
}

function readTimestamp(r: BinaryReader): string {
  const end = fieldEnd(r)
  let seconds: bigint | string = 0n
  let nanos = 0
  while (r.pos < end) {
    const [field, wireType] = r.tag()
    if (field === timestampField.seconds && wireType === WireType.Varint) seconds = r.int64()
    else if (field === timestampField.nanos && wireType === WireType.Varint) nanos = r.int32()
    else r.skip(wireType, field)
  }
  return timestampJson(seconds, nanos)
}

function readMapEntry(r: BinaryReader, into: Record<string, string>): void {
  const end = fieldEnd(r)
  let key = ''
  let value = ''
  while (r.pos < end) {
    const [field, wireType] = r.tag()
    if (field === 1 && wireType === WireType.LengthDelimited) key = r.string()
    else if (field === 2 && wireType === WireType.LengthDelimited) value = r.string()
    else r.skip(wireType, field)
  }
  into[key] = value
}

/** Text into the writer, as UTF-8. */
function text(w: Writer, value: string): void {
  w.room(3 * value.length)
  w.pos += w.buf.write(value, w.pos, 'utf8')
}

const quote = 0x22
const backslash = 0x5c

/**
 * A string field's UTF-8 bytes as a JSON string: copied between quotes as they are where JSON
 * needs no escape in them (most names), else decoded and written as JSON.stringify escapes it.
 */
function jsonString(w: Writer, bytes: Uint8Array, start: number, end: number): void {
  for (let i = start; i < end; i++) {
    const byte = bytes[i] as number
    if (byte < 0x20 || byte === quote || byte === backslash) {
      text(w, JSON.stringify(utf8(bytes, start, end)))
      return
    }
  }
  w.room(end - start + 2)
  w.buf[w.pos++] = quote
  w.copy(bytes, start, end)
  w.buf[w.pos++] = quote
}

/** Where an entry's string field is: its bytes' range (start, end), or -1 when absent. */
const absent = -1

/** Keys as bytes, with and without the comma before: `"name":` and `,"name":`. */
const keys = new Map<string, [Buffer, Buffer]>()
function key(w: Writer, first: boolean, name: string): void {
  let both = keys.get(name)
  if (both === undefined) {
    both = [Buffer.from(`"${name}":`), Buffer.from(`,"${name}":`)]
    keys.set(name, both)
  }
  const bytes = both[first ? 0 : 1] as Buffer
  w.room(bytes.length)
  w.copy(bytes)
}

/** An entry's object being written: its fields in order, a comma before all but the first. */
class ObjectWriter {
  private first = true
  constructor(
    private readonly w: Writer,
    private readonly bytes: Uint8Array,
    private readonly ranges: number[],
  ) {}

  /** The string field in `slot` of the ranges, left out when absent, or empty unless `always`. */
  string(slot: number, name: string, always = false): void {
    const start = this.ranges[2 * slot] as number
    const stop = this.ranges[2 * slot + 1] as number
    if (start === absent || (start === stop && !always)) return
    key(this.w, this.first, name)
    this.first = false
    jsonString(this.w, this.bytes, start, stop)
  }

  /** A field whose JSON is given, in ASCII (a number, a time, an enum's name). */
  ascii(name: string, json: string): void {
    key(this.w, this.first, name)
    this.first = false
    const w = this.w
    w.room(json.length)
    // A loop: these are a few characters, where a call into Buffer's encoder costs more.
    for (let i = 0; i < json.length; i++) w.buf[w.pos++] = json.charCodeAt(i)
  }

  /** A field whose JSON is given, in any script. */
  plain(name: string, json: string): void {
    key(this.w, this.first, name)
    this.first = false
    text(this.w, json)
  }
}

/** One EntryInfo (the reader at its length) written as its JSON object. */
function writeEntry(r: BinaryReader, w: Writer, bytes: Uint8Array): void {
  const end = fieldEnd(r)
  // [start, end) of name, path, permissions, owner, group, symlinkTarget.
  const ranges = [absent, 0, absent, 0, absent, 0, absent, 0, absent, 0, absent, 0]
  let type = 0
  let size: bigint | string = 0n
  let mode = 0
  let modifiedTime: string | undefined
  let metadata: Record<string, string> | undefined
  while (r.pos < end) {
    const [field, wireType] = r.tag()
    if (wireType === WireType.Varint) {
      if (field === entryField.type) type = r.int32()
      else if (field === entryField.size) size = r.int64()
      else if (field === entryField.mode) mode = r.uint32()
      else r.skip(wireType, field)
    } else if (wireType === WireType.LengthDelimited) {
      const slot = stringSlots[field]
      if (slot !== undefined) {
        // The string's bytes stay where they are: copied into the JSON, mostly never decoded.
        const stop = fieldEnd(r)
        ranges[2 * slot] = r.pos
        ranges[2 * slot + 1] = stop
        r.pos = stop
      } else if (field === entryField.modifiedTime) modifiedTime = readTimestamp(r)
      else if (field === entryField.metadata) {
        metadata ??= {}
        readMapEntry(r, metadata)
      } else r.skip(wireType, field)
    } else r.skip(wireType, field)
  }
  // proto3's implicit fields are left out at their defaults; the optional symlinkTarget whenever set.
  const o = new ObjectWriter(w, bytes, ranges)
  w.room(1)
  w.buf[w.pos++] = 0x7b // {
  o.string(0, 'name')
  if (type !== 0) o.ascii('type', fileTypeNames[type] ?? String(type))
  o.string(1, 'path')
  if (String(size) !== '0') o.ascii('size', `"${size}"`)
  if (mode !== 0) o.ascii('mode', String(mode))
  o.string(2, 'permissions')
  o.string(3, 'owner')
  o.string(4, 'group')
  if (modifiedTime !== undefined) o.ascii('modifiedTime', modifiedTime)
  o.string(5, 'symlinkTarget', true)
  if (metadata && Object.keys(metadata).length > 0) o.plain('metadata', JSON.stringify(metadata))
  w.room(1)
  w.buf[w.pos++] = 0x7d // }
}

/** EntryInfo's string fields by number: their place in writeEntry's ranges. */
const stringSlots: Record<number, number> = {
  [entryField.name]: 0,
  [entryField.path]: 1,
  [entryField.permissions]: 2,
  [entryField.owner]: 3,
  [entryField.group]: 4,
  [entryField.symlinkTarget]: 5,
}

/**
 * The entries of a ListDirResponse's bytes (field 1, repeated: a chunk of a listing) as the JSON
 * objects toJsonString writes for them, joined by commas; no bytes for none.
 */
export function entriesJson(bytes: Uint8Array): Buffer {
  const r = new BinaryReader(bytes)
  // JSON takes about twice the bytes of the binary entries.
  const w = new Writer(2 * bytes.length + 64)
  while (r.pos < r.len) {
    const [field, wireType] = r.tag()
    if (field !== entriesField || wireType !== WireType.LengthDelimited) {
      r.skip(wireType, field)
      continue
    }
    if (w.pos > 0) {
      w.room(1)
      w.buf[w.pos++] = 0x2c // ,
    }
    writeEntry(r, w, bytes)
  }
  return w.buf.subarray(0, w.pos)
}

/**
 * A whole ListDirResponse as JSON, its entries' JSON given a chunk at a time (entriesJson's):
 * `{"entries":[…]}`, or `{}` when no chunk held an entry, as toJsonString writes an empty list.
 */
export async function* listingJson(
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array, void, undefined> {
  let opened = false
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue
    yield Buffer.concat([Buffer.from(opened ? ',' : '{"entries":['), chunk])
    opened = true
  }
  yield Buffer.from(opened ? ']}' : '{}')
}
