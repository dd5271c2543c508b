import { endianness } from 'node:os'
import { join } from 'node:path'
import { WireType } from '@bufbuild/protobuf/wire'
import type { UserDirectory } from '../users'
import { fileTypeOf } from './entryInfo'
import { fileModeString } from './fileModeString'
import {
  entriesField,
  entryField,
  timestampField,
  varintSize,
  Writer,
  writeEntryField,
} from './listingBinary'
import { describeNativeEntry, isSymlinkMode, type NativeRead } from './nativeEntry'

// A chunk of a big listing written from the native reader's arrays straight into its bytes:
// describing each entry first (its path joined, its strings looked up, an EntryInfo, a Timestamp)
// and then encoding it took most of the JavaScript time of a listing of 100,000 entries. Here a
// chunk's names are encoded once, and its owners, groups and mode strings once each, and every
// entry is measured and written in one go; the bytes are encodeEntries' (a test holds them equal).

// EntryInfo's fields are all below 16: one byte for a tag.
const varintFieldSize = (value: number) => (value === 0 ? 0 : 1 + varintSize(value))
const bytesFieldSize = (length: number) => (length === 0 ? 0 : 1 + varintSize(length) + length)

/** A BigInt64Array's 32-bit words: its values are read from them, with no BigInt made for each. */
const wordsOf = (values: BigInt64Array) =>
  new Uint32Array(values.buffer, values.byteOffset, values.length * 2)
const lowWord = endianness() === 'LE' ? 0 : 1

/** Value `i` of the words of a BigInt64Array, or -1 where it is negative or past 2^53 (the BigInt path's). */
function safeValue(words: Uint32Array, i: number): number {
  const low = words[2 * i + lowWord] as number
  const high = words[2 * i + 1 - lowWord] as number
  return high < 0x200000 ? high * 0x100000000 + low : -1
}

/** Strings a chunk repeats (owners by uid, …), each encoded once. */
class EncodedByNumber {
  private readonly known = new Map<number, Buffer>()
  constructor(private readonly text: (key: number) => string) {}

  get(key: number): Buffer {
    let bytes = this.known.get(key)
    if (bytes === undefined) {
      bytes = Buffer.from(this.text(key))
      this.known.set(key, bytes)
    }
    return bytes
  }
}

const slash = 0x2f

/**
 * One chunk the native reader read (`names` of `shownDir`), as a ListDirResponse's bytes: what
 * encodeEntries writes of the chunk's EntryInfo, in the names' order. An entry the arrays do not
 * say alone (a symlink, an error, metadata, a time before 1970) is described as before; where
 * that throws, `onError` decides (it throws to fail the chunk, or returns to leave the entry out).
 */
export class NativeChunkWriter {
  private readonly w: Writer
  /** The names in UTF-8, each followed by a '/' (which no name holds). */
  private readonly nameBytes: Buffer
  private nameAt = 0
  private next = 0
  /** What every entry's path starts with: what join(shownDir, name) puts before the name. */
  private readonly prefix: Buffer
  private readonly sizeWords: Uint32Array
  private readonly secondsWords: Uint32Array
  private readonly permissions = new EncodedByNumber(fileModeString)
  private readonly owners: EncodedByNumber
  private readonly groups: EncodedByNumber

  constructor(
    private readonly names: readonly string[],
    private readonly read: NativeRead,
    private readonly shownDir: string,
    private readonly users: UserDirectory,
    private readonly onError: (error: unknown) => void,
  ) {
    this.nameBytes = Buffer.from(`${names.join('/')}/`)
    this.prefix = Buffer.from(join(shownDir, '-').slice(0, -1))
    this.sizeWords = wordsOf(read.sizes)
    this.secondsWords = wordsOf(read.mtimeSeconds)
    this.owners = new EncodedByNumber((uid) => users.userName(uid))
    this.groups = new EncodedByNumber((gid) => users.groupName(gid))
    // Each entry's fields but its name and path take some 60 bytes.
    this.w = new Writer(2 * this.nameBytes.length + names.length * (this.prefix.length + 64))
  }

  /** Writes the entries up to `end` (exclusive) from where the last call stopped. */
  writeUpTo(end: number): void {
    const nameBytes = this.nameBytes
    for (let i = this.next; i < end; i++) {
      const nameStart = this.nameAt
      let nameEnd = nameStart
      while (nameBytes[nameEnd] !== slash) nameEnd++
      this.nameAt = nameEnd + 1
      if (!this.writeFromArrays(i, nameStart, nameEnd)) this.writeDescribed(i)
    }
    this.next = end
  }

  /** The bytes written so far. */
  bytes(): Buffer {
    return this.w.buf.subarray(0, this.w.pos)
  }

  /** Entry `i` written from the arrays alone, as describeEntry and writeEntryField would; false where it cannot be. */
  private writeFromArrays(i: number, nameStart: number, nameEnd: number): boolean {
    const read = this.read
    const mode = read.modes[i] as number
    if (read.errors[i] !== 0 || isSymlinkMode(mode) || read.attributes[i] !== undefined) return false
    const size = safeValue(this.sizeWords, i)
    const seconds = safeValue(this.secondsWords, i)
    if (size < 0 || seconds < 0) return false
    const nanos = read.mtimeNanos[i] as number
    const type = fileTypeOf(mode)
    const bits = mode & 0o777
    const permissions = this.permissions.get(mode)
    const owner = this.owners.get(read.uids[i] as number)
    const group = this.groups.get(read.gids[i] as number)
    const nameLength = nameEnd - nameStart
    const pathLength = this.prefix.length + nameLength
    // A zero time is no Timestamp at all, as describeEntry leaves it out.
    const timeLength = varintFieldSize(seconds) + varintFieldSize(nanos)
    const length =
      bytesFieldSize(nameLength) +
      varintFieldSize(type) +
      bytesFieldSize(pathLength) +
      varintFieldSize(size) +
      varintFieldSize(bits) +
      bytesFieldSize(permissions.length) +
      bytesFieldSize(owner.length) +
      bytesFieldSize(group.length) +
      (timeLength === 0 ? 0 : bytesFieldSize(timeLength))

    const w = this.w
    w.room(length + 6)
    w.tag(entriesField, WireType.LengthDelimited)
    w.varint(length)
    w.bytesField(entryField.name, this.nameBytes, nameStart, nameEnd)
    w.varintField(entryField.type, type)
    w.tag(entryField.path, WireType.LengthDelimited) // never empty: it holds the name
    w.varint(pathLength)
    w.copy(this.prefix)
    w.copy(this.nameBytes, nameStart, nameEnd)
    w.varintField(entryField.size, size)
    w.varintField(entryField.mode, bits)
    w.bytesField(entryField.permissions, permissions)
    w.bytesField(entryField.owner, owner)
    w.bytesField(entryField.group, group)
    if (timeLength !== 0) {
      w.tag(entryField.modifiedTime, WireType.LengthDelimited)
      w.varint(timeLength)
      w.varintField(timestampField.seconds, seconds)
      w.varintField(timestampField.nanos, nanos)
    }
    return true
  }

  /** Entry `i` described as describeDirectory does (symlinks through entryInfo), then written. */
  private writeDescribed(i: number): void {
    let info: ReturnType<typeof describeNativeEntry>
    try {
      info = describeNativeEntry(this.read, i, join(this.shownDir, this.names[i] as string), this.users)
    } catch (error) {
      this.onError(error)
      return
    }
    writeEntryField(this.w, info)
  }
}
