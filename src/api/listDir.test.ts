// The hand-read ListDir against protobuf's own reading of the same bytes, and against a real runtime.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf'
import { TimestampSchema } from '@bufbuild/protobuf/wkt'
import { Code, ConnectError, createClient } from '@connectrpc/connect'
import { createConnectTransport } from '@connectrpc/connect-web'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../../server/runtime/testing/runtimeFixture'
import {
  type EntryInfo,
  EntryInfoSchema,
  Filesystem,
  FileType,
  ListDirResponseSchema,
} from '../gen/filesystem_pb'
import { entriesFromBinary, ListingDecoder, listDir } from './listDir'

const entryInfo = fc.record(
  {
    name: fc.string({ unit: 'grapheme' }),
    type: fc.constantFrom(FileType.UNSPECIFIED, FileType.FILE, FileType.DIRECTORY, FileType.SYMLINK),
    path: fc.string(),
    size: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
    mode: fc.integer({ min: 0, max: 0xffffffff }),
    permissions: fc.string(),
    owner: fc.string(),
    group: fc.string(),
    modifiedTime: fc.option(
      fc.record({
        // 0001-01-01 to 9999-12-31, as protobuf's JSON allows.
        seconds: fc.bigInt({ min: -62135596800n, max: 253402300799n }),
        nanos: fc.oneof(
          fc.constant(0),
          fc.integer({ min: 0, max: 999 }).map((n) => n * 1_000_000),
          fc.nat(999_999_999),
        ),
      }),
      { nil: undefined },
    ),
    symlinkTarget: fc.option(fc.string(), { nil: undefined }),
    metadata: fc.dictionary(fc.string({ minLength: 1 }), fc.string()),
  },
  { requiredKeys: ['name', 'type', 'path', 'size', 'mode', 'permissions', 'owner', 'group', 'metadata'] },
)

describe('entriesFromBinary', () => {
  const encoded = (entries: EntryInfo[]) =>
    toBinary(ListDirResponseSchema, create(ListDirResponseSchema, { entries }))

  it('reads what protobuf writes exactly as protobuf reads it', () => {
    fc.assert(
      fc.property(fc.array(entryInfo, { maxLength: 10 }), (fields) => {
        const entries = fields.map(({ modifiedTime, ...rest }) =>
          create(EntryInfoSchema, {
            ...rest,
            ...(modifiedTime ? { modifiedTime: create(TimestampSchema, modifiedTime) } : {}),
          }),
        )
        const bytes = encoded(entries)
        expect(entriesFromBinary(bytes)).toStrictEqual(fromBinary(ListDirResponseSchema, bytes).entries)
      }),
      { numRuns: 1000 },
    )
  })

  it('hands bytes of another shape to protobuf, with the same result or the same refusal', () => {
    const entry = encoded([create(EntryInfoSchema, { name: 'a', size: 3n })])
    const cases = [
      // An unknown field 15 in the entry, and one in the answer.
      Uint8Array.from([0x0a, 0x05, 0x0a, 0x01, 0x61, 0x78, 0x01]),
      Uint8Array.from([...entry, 0x78, 0x01]),
      // The time given twice: protobuf merges the two.
      Uint8Array.from([0x0a, 0x08, 0x4a, 0x02, 0x08, 0x05, 0x4a, 0x02, 0x10, 0x07]),
    ]
    for (const bytes of cases)
      expect(entriesFromBinary(bytes)).toStrictEqual(fromBinary(ListDirResponseSchema, bytes).entries)
    for (const broken of [
      entry.subarray(0, entry.length - 1),
      Uint8Array.from([0x0a, 0x03, 0x0a, 0x01, 0xff]),
    ]) {
      expect(() => fromBinary(ListDirResponseSchema, broken)).toThrow()
      expect(() => entriesFromBinary(broken)).toThrow()
    }
  })
})

describe('ListingDecoder', () => {
  const encoded = (entries: EntryInfo[]) =>
    toBinary(ListDirResponseSchema, create(ListDirResponseSchema, { entries }))
  const decoded = (pieces: Uint8Array[]) => {
    const decoder = new ListingDecoder()
    for (const piece of pieces) decoder.push(piece)
    return decoder.finish()
  }
  const small = encoded([
    create(EntryInfoSchema, {
      name: 'ünïcode ⏎ 🙂',
      type: FileType.FILE,
      path: '/home/user/ünïcode ⏎ 🙂',
      size: 300n,
      mode: 0o644,
      permissions: '-rw-r--r--',
      owner: 'user',
      group: 'user',
      modifiedTime: create(TimestampSchema, { seconds: 1_700_000_000n, nanos: 5 }),
      metadata: { clé: 'valeur ✓' },
    }),
    create(EntryInfoSchema, { name: 'sub', type: FileType.DIRECTORY, owner: 'user', group: 'user' }),
    create(EntryInfoSchema, { name: 'link', type: FileType.SYMLINK, symlinkTarget: 'sub', owner: 'user' }),
  ])

  it('reads a listing cut at any byte, or cut into single bytes, as the whole of it', () => {
    const whole = entriesFromBinary(small)
    expect(whole).toHaveLength(3)
    for (let cut = 0; cut <= small.length; cut++)
      expect(decoded([small.subarray(0, cut), small.subarray(cut)])).toStrictEqual(whole)
    expect(decoded([...small].map((byte) => Uint8Array.of(byte)))).toStrictEqual(whole)
    expect(decoded([])).toStrictEqual([])
  })

  it('reads a big listing in pieces of any size as the whole of it', () => {
    const entries = Array.from({ length: 20_000 }, (_, i) =>
      create(EntryInfoSchema, {
        name: `entry-${i}-${'é漢🙂'.repeat(i % 4)}`,
        type: i % 7 === 0 ? FileType.DIRECTORY : FileType.FILE,
        path: `/home/user/big/entry-${i}`,
        size: BigInt(i * 1000),
        mode: 0o644,
        permissions: '-rw-r--r--',
        owner: i % 3 === 0 ? 'root' : 'user',
        group: 'user',
        modifiedTime: create(TimestampSchema, { seconds: BigInt(1_700_000_000 + i), nanos: i }),
        metadata: i % 101 === 0 ? { n: String(i) } : {},
      }),
    )
    const bytes = encoded(entries)
    const whole = entriesFromBinary(bytes)
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 40 }), (sizes) => {
        const pieces: Uint8Array[] = []
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const size = sizes[i % sizes.length] as number
          pieces.push(bytes.subarray(at, at + size))
          at += size
        }
        expect(decoded(pieces)).toStrictEqual(whole)
      }),
      { numRuns: 6 },
    )
  })

  it('leaves bytes of another shape to entriesFromBinary, cut anywhere: the same entries or the same refusal', () => {
    const entry = encoded([create(EntryInfoSchema, { name: 'a', size: 3n })])
    const readable = [
      Uint8Array.from([0x0a, 0x05, 0x0a, 0x01, 0x61, 0x78, 0x01]),
      Uint8Array.from([...entry, 0x78, 0x01]),
      Uint8Array.from([0x0a, 0x08, 0x4a, 0x02, 0x08, 0x05, 0x4a, 0x02, 0x10, 0x07]),
    ]
    for (const bytes of readable)
      for (let cut = 0; cut <= bytes.length; cut++)
        expect(decoded([bytes.subarray(0, cut), bytes.subarray(cut)])).toStrictEqual(
          fromBinary(ListDirResponseSchema, bytes).entries,
        )
    for (const broken of [
      entry.subarray(0, entry.length - 1),
      Uint8Array.from([0x0a, 0x03, 0x0a, 0x01, 0xff]),
    ])
      for (let cut = 0; cut <= broken.length; cut++)
        expect(() => decoded([broken.subarray(0, cut), broken.subarray(cut)])).toThrow()
  })
})

describe('listDir against a real runtime', () => {
  let rt: TestRuntime
  beforeAll(async () => {
    rt = await startTestRuntime()
    await rt.fs.makeDir({ path: 'listed/sub' })
    for (const [name, content] of [
      ['a.txt', 'hello'],
      ['ünïcode ⏎', ''],
    ]) {
      const path = encodeURIComponent(`listed/${name}`)
      const written = await fetch(`${rt.url}/files?path=${path}`, {
        method: 'POST',
        headers: { ...rt.auth, 'Content-Type': 'application/octet-stream' },
        body: content,
      })
      expect(written.ok).toBe(true)
    }
  })
  afterAll(() => rt.close())

  const endpoint = () => ({ runtimeUrl: rt.url, accessToken: rt.token ?? null })

  it('answers the entries connect-web answers', async () => {
    const transport = createConnectTransport({
      baseUrl: rt.url,
      interceptors: [
        (next) => (req) => {
          if (rt.token) req.header.set('X-Access-Token', rt.token)
          return next(req)
        },
      ],
    })
    const expected = (await createClient(Filesystem, transport).listDir({ path: 'listed', depth: 2 })).entries
    expect(expected.map((e) => e.name)).toEqual(['a.txt', 'sub', 'ünïcode ⏎'])
    expect(await listDir(endpoint(), { path: 'listed', depth: 2 })).toStrictEqual(expected)
  })

  it('reads a big folder, whose answer comes as the runtime reads it, as the generated client does', async () => {
    const script =
      'mkdir big && cd big && i=0; while [ $i -lt 10000 ]; do printf %$((i % 3))s > f$i; i=$((i+1)); done'
    for await (const _ of rt.proc.start({
      process: { cmd: '/bin/sh', args: ['-c', script], cwd: rt.home },
    })) {
    }
    const expected = (await rt.fs.listDir({ path: 'big', depth: 1 })).entries
    expect(expected).toHaveLength(10_000)
    expect(await listDir(endpoint(), { path: 'big', depth: 1 })).toStrictEqual(expected)
  }, 30_000)

  it("throws the runtime's error, with its code and message", async () => {
    const err = await listDir(endpoint(), { path: 'no/such/folder', depth: 1 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConnectError)
    expect((err as ConnectError).code).toBe(Code.NotFound)
    expect((err as ConnectError).rawMessage).toMatch(/^path not found: .*no\/such\/folder$/)
    const wrongToken = { ...endpoint(), accessToken: 'not-the-token' }
    const refused = await listDir(wrongToken, { path: 'listed', depth: 1 }).catch((e: unknown) => e)
    expect((refused as ConnectError).code).toBe(Code.Unauthenticated)
  })
})
