import { create, type MessageInitShape, toBinary, toJsonString } from '@bufbuild/protobuf'
import { describe, expect, it } from 'vitest'
import { EntryInfoSchema, FileType, ListDirResponseSchema } from '../../../src/gen/filesystem_pb'
import { encodeEntries } from './listingBinary'
import { entriesJson, listingJson } from './listingJson'

type Init = MessageInitShape<typeof EntryInfoSchema>

/** Entries with every field at its edges: what toJsonString must agree with. */
const entries: Init[] = [
  {
    name: 'a.txt',
    type: FileType.FILE,
    path: '/home/user/a.txt',
    size: 12n,
    mode: 0o644,
    permissions: '-rw-r--r--',
    owner: 'user',
    group: 'user',
    modifiedTime: { seconds: 1_764_000_000n, nanos: 123_456_789 },
  },
  {
    name: 'dir',
    type: FileType.DIRECTORY,
    path: '/home/user/dir',
    mode: 0o755,
    modifiedTime: { seconds: 1n },
  },
  {
    name: 'link',
    type: FileType.SYMLINK,
    path: '/home/user/link',
    symlinkTarget: '',
    modifiedTime: { seconds: 0n, nanos: 5_000_000 },
  },
  { name: 'to', type: FileType.SYMLINK, path: '/home/user/to', symlinkTarget: '/home/user/a.txt' },
  // Quotes, backslashes, control characters, other scripts and emoji, as JSON.stringify escapes them.
  { name: 'q"\\\n\t\u0001é漢😀', path: '/home/user/q"\\\n\t\u0001é漢😀', size: 9_007_199_254_740_993n },
  { name: 'big', size: 9_223_372_036_854_775_807n, modifiedTime: { seconds: -86_400n, nanos: 1_000 } },
  { name: 'old', modifiedTime: { seconds: -62_135_596_800n } },
  { name: 'meta', metadata: { b: '2', '10': 'ten', '2': 'two', 'k"': 'v\n' } },
  { name: 'zero', type: FileType.UNSPECIFIED, size: 0n, mode: 0 },
  {},
]

const expected = (list: Init[]) =>
  toJsonString(ListDirResponseSchema, create(ListDirResponseSchema, { entries: list }))

async function joined(chunks: Uint8Array[]): Promise<string> {
  const pieces: Uint8Array[] = []
  for await (const piece of listingJson(
    (async function* () {
      yield* chunks
    })(),
  ))
    pieces.push(piece)
  return Buffer.concat(pieces).toString()
}

describe('listing JSON from the binary answer', () => {
  it("writes toJsonString's text, byte for byte, from protobuf-es's bytes and from ours", async () => {
    const messages = entries.map((e) => create(EntryInfoSchema, e))
    const theirs = toBinary(ListDirResponseSchema, create(ListDirResponseSchema, { entries: messages }))
    expect(await joined([entriesJson(theirs)])).toBe(expected(entries))
    expect(await joined([entriesJson(encodeEntries(messages))])).toBe(expected(entries))
  })

  it('joins chunks into one list, skips chunks left empty, and writes {} for no entry', async () => {
    const chunk = (list: Init[]) => entriesJson(encodeEntries(list.map((e) => create(EntryInfoSchema, e))))
    const [first, second, third] = [entries.slice(0, 3), entries.slice(3, 6), entries.slice(6)]
    expect(await joined([chunk(first), Buffer.alloc(0), chunk(second), chunk(third)])).toBe(expected(entries))
    expect(await joined([Buffer.alloc(0), Buffer.alloc(0)])).toBe('{}')
    expect(await joined([])).toBe(expected([]))
  })

  it('refuses a time JSON cannot say, as toJsonString does', () => {
    const bytes = encodeEntries([
      create(EntryInfoSchema, { name: 'x', modifiedTime: { seconds: 253_402_300_800n } }),
    ])
    expect(() => entriesJson(bytes)).toThrow(/out of JSON's range/)
  })
})
