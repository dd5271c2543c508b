import { BinaryReader, WireType } from '@bufbuild/protobuf/wire'
import { FileType } from '../../../src/gen/filesystem_pb'
import { entriesField, entryField, timestampField } from './listingBinary'

// A big listing in Connect's JSON, as the SDKs ask for it, made from the bytes the binary answer
// is already made of (nativeChunkBinary.ts): protobuf-es's toJson goes through reflection for
// every field of every entry, which made ListDir of 100,000 entries as JSON three times as slow as
// `ls -la`. The text is toJsonString's, byte for byte (a test holds them equal): fields in their
// order in filesystem.proto, lowerCamelCase names, defaults left out, the int64 size as a string,
// the type by its enum name, the time as RFC 3339 with 0, 3, 6 or 9 digits of a second.

const fileTypeNames: Record<number, string> = {
  [FileType.FILE]: 'FILE_TYPE_FILE',
  [FileType.DIRECTORY]: 'FILE_TYPE_DIRECTORY',
  [FileType.SYMLINK]: 'FILE_TYPE_SYMLINK',
}

const earliest = Date.parse('0001-01-01T00:00:00Z')
const latest = Date.parse('9999-12-31T23:59:59Z')

/** A google.protobuf.Timestamp as JSON text (a quoted string), as protobuf-es writes it. */
function timestampJson(seconds: bigint | string, nanos: number): string {
  const ms = Number(seconds) * 1000
  if (ms < earliest || ms > latest) throw new Error(`a modification time out of JSON's range: ${seconds} s`)
  if (nanos < 0 || nanos > 999_999_999) throw new Error(`a modification time with ${nanos} ns`)
  let zone = 'Z'
  if (nanos > 0) {
    const digits = String(nanos + 1_000_000_000).slice(1)
    zone = digits.endsWith('000000')
      ? `.${digits.slice(0, 3)}Z`
      : digits.endsWith('000')
        ? `.${digits.slice(0, 6)}Z`
        : `.${digits}Z`
  }
  return `"${new Date(ms).toISOString().replace('.000Z', zone)}"`
}

function readTimestamp(r: BinaryReader): string {
  const end = r.uint32() + r.pos
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
  const end = r.uint32() + r.pos
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

/** One EntryInfo's bytes (the reader at its length) as its JSON object. */
function entryJson(r: BinaryReader): string {
  const end = r.uint32() + r.pos
  let name: string | undefined
  let type = 0
  let path: string | undefined
  let size: bigint | string = 0n
  let mode = 0
  let permissions: string | undefined
  let owner: string | undefined
  let group: string | undefined
  let modifiedTime: string | undefined
  let symlinkTarget: string | undefined
  const metadata: Record<string, string> = {}
  while (r.pos < end) {
    const [field, wireType] = r.tag()
    const text = wireType === WireType.LengthDelimited
    if (field === entryField.name && text) name = r.string()
    else if (field === entryField.type && !text) type = r.int32()
    else if (field === entryField.path && text) path = r.string()
    else if (field === entryField.size && !text) size = r.int64()
    else if (field === entryField.mode && !text) mode = r.uint32()
    else if (field === entryField.permissions && text) permissions = r.string()
    else if (field === entryField.owner && text) owner = r.string()
    else if (field === entryField.group && text) group = r.string()
    else if (field === entryField.modifiedTime && text) modifiedTime = readTimestamp(r)
    else if (field === entryField.symlinkTarget && text) symlinkTarget = r.string()
    else if (field === entryField.metadata && text) readMapEntry(r, metadata)
    else r.skip(wireType, field)
  }
  const fields: string[] = []
  // proto3's implicit fields are left out at their defaults; the optional symlinkTarget whenever set.
  if (name) fields.push(`"name":${JSON.stringify(name)}`)
  if (type !== 0)
    fields.push(`"type":${fileTypeNames[type] === undefined ? type : `"${fileTypeNames[type]}"`}`)
  if (path) fields.push(`"path":${JSON.stringify(path)}`)
  if (String(size) !== '0') fields.push(`"size":"${size}"`)
  if (mode !== 0) fields.push(`"mode":${mode}`)
  if (permissions) fields.push(`"permissions":${JSON.stringify(permissions)}`)
  if (owner) fields.push(`"owner":${JSON.stringify(owner)}`)
  if (group) fields.push(`"group":${JSON.stringify(group)}`)
  if (modifiedTime !== undefined) fields.push(`"modifiedTime":${modifiedTime}`)
  if (symlinkTarget !== undefined) fields.push(`"symlinkTarget":${JSON.stringify(symlinkTarget)}`)
  if (Object.keys(metadata).length > 0) fields.push(`"metadata":${JSON.stringify(metadata)}`)
  return `{${fields.join(',')}}`
}

/**
 * The entries of a ListDirResponse's bytes (field 1, repeated: a chunk of a listing) as the JSON
 * objects toJsonString writes for them, joined by commas; '' for none.
 */
export function entriesJson(bytes: Uint8Array): string {
  const r = new BinaryReader(bytes)
  const entries: string[] = []
  while (r.pos < r.len) {
    const [field, wireType] = r.tag()
    if (field === entriesField && wireType === WireType.LengthDelimited) entries.push(entryJson(r))
    else r.skip(wireType, field)
  }
  return entries.join(',')
}

/**
 * A whole ListDirResponse as JSON text, its entries' JSON given a chunk at a time (entriesJson's):
 * `{"entries":[…]}`, or `{}` when no chunk held an entry, as toJsonString writes an empty list.
 */
export async function* listingJson(chunks: AsyncIterable<string>): AsyncGenerator<string, void, undefined> {
  let opened = false
  for await (const chunk of chunks) {
    if (chunk === '') continue
    yield opened ? `,${chunk}` : `{"entries":[${chunk}`
    opened = true
  }
  yield opened ? ']}' : '{}'
}
