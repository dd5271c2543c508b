import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { create, fromBinary, toBinary, toJson } from '@bufbuild/protobuf'
import fc from 'fast-check'
import { setAttribute } from 'fs-xattr'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { type EntryInfo, EntryInfoSchema, ListDirResponseSchema } from '../../../src/gen/filesystem_pb'
import { UserDirectory } from '../users'
import { byteOrder } from './byteOrder'
import { encodeInChunks } from './dirChunks'
import {
  type DescribedEntry,
  describeDirectory,
  type NativeReader,
  nativeReader,
  readsInChunks,
} from './dirEntries'
import type { NativeRead } from './nativeEntry'

const byName = (entries: DescribedEntry[]) =>
  [...entries]
    .sort((a, b) => byteOrder(a.name, b.name))
    .map((e) => ('info' in e ? toJson(EntryInfoSchema, e.info) : e))

/** What protobuf-es itself writes of a listing of the entries described (their order's), every one read. */
const answerOf = (entries: DescribedEntry[]) =>
  Buffer.from(
    toBinary(
      ListDirResponseSchema,
      create(ListDirResponseSchema, {
        entries: [...entries]
          .sort((a, b) => byteOrder(a.name, b.name))
          .map((e) => ('info' in e ? e.info : expect.unreachable(`${e.name}: ${e.error}`))),
      }),
    ),
  )

/** Every chunk of a directory read by encodeInChunks, in order. */
async function chunksOf(...args: Parameters<typeof encodeInChunks>) {
  const { count, chunks } = await encodeInChunks(...args)
  const all: Buffer[] = []
  for await (const chunk of chunks) all.push(chunk)
  return { count, chunks: all }
}

/** The native reader, with what it read of each entry changed by `alter` (an error, an owner). */
function alteredReader(alter: (name: string, read: NativeRead, i: number) => void): NativeReader {
  const reader = nativeReader as NativeReader
  const altered = <T extends NativeRead>(names: readonly string[], read: T) => {
    for (const [i, name] of names.entries()) alter(name, read, i)
    return read
  }
  return {
    readDirNames: (dir) => reader.readDirNames(dir),
    readDirEntries: async (dir, prefix) => {
      const read = await reader.readDirEntries(dir, prefix)
      return altered(read.names, read)
    },
    statDirEntries: async (dir, names, prefix) =>
      altered(names, await reader.statDirEntries(dir, names, prefix)),
  }
}

/** The entries of a chunk's bytes. */
const entriesOf = (bytes: Uint8Array): EntryInfo[] => fromBinary(ListDirResponseSchema, bytes).entries

describe('describeDirectory', () => {
  const users = new UserDirectory('root')
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dir-entries-'))
    writeFileSync(join(dir, 'plain.txt'), 'hello')
    writeFileSync(join(dir, 'with-metadata'), '')
    await setAttribute(join(dir, 'with-metadata'), 'user.e2b.owner', 'ada')
    await setAttribute(join(dir, 'with-metadata'), 'user.e2b.bad', Buffer.from([0xff, 0xfe]))
    await setAttribute(join(dir, 'with-metadata'), 'user.other', 'not ours')
    mkdirSync(join(dir, 'folder'))
    chmodSync(join(dir, 'folder'), 0o1777)
    writeFileSync(join(dir, 'setuid'), '')
    chmodSync(join(dir, 'setuid'), 0o4755)
    symlinkSync('plain.txt', join(dir, 'link'))
    symlinkSync('nowhere', join(dir, 'broken'))
    symlinkSync('loop', join(dir, 'loop'))
    writeFileSync(join(dir, 'hostile\nname <b>&amp; 🙂 漢字'), 'x'.repeat(70_000))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('has its native reader here (npm install builds it)', () => {
    expect(nativeReader).toBeDefined()
    expect(readsInChunks).toBe(true)
  })

  it('answers with the native reader exactly what entryInfo answers, metadata and links included', async () => {
    const native = await describeDirectory(dir, '/shown', users)
    const plain = await describeDirectory(dir, '/shown', users, undefined)
    expect(byName(native)).toEqual(byName(plain))
    const meta = native.find((e) => e.name === 'with-metadata')
    expect(meta && 'info' in meta && meta.info.metadata).toEqual({ owner: 'ada' })
    expect(native.map((e) => e.name).sort(byteOrder)).toEqual([
      'broken',
      'folder',
      'hostile\nname <b>&amp; 🙂 漢字',
      'link',
      'loop',
      'plain.txt',
      'setuid',
      'with-metadata',
    ])
  })

  it('answers the same for a big folder, whose entries the native reader shares among threads', async () => {
    const big = mkdtempSync(join(tmpdir(), 'dir-entries-big-'))
    onTestFinished(() => rmSync(big, { recursive: true, force: true }))
    // Past a few threads' shares, with metadata, links and folders spread among them.
    for (let i = 0; i < 20_000; i++) {
      const name = join(big, `e${i}`)
      if (i % 997 === 0) symlinkSync(`e${i + 1}`, name)
      else if (i % 1009 === 0) mkdirSync(name)
      else writeFileSync(name, 'x'.repeat(i % 7))
      if (i % 1013 === 0 && i % 997 !== 0) await setAttribute(name, 'user.e2b.n', String(i))
    }
    const native = await describeDirectory(big, '/shown', users)
    const plain = await describeDirectory(big, '/shown', users, undefined)
    expect(native).toHaveLength(20_000)
    expect(byName(native)).toEqual(byName(plain))
    const tagged = native.find((e) => e.name === 'e1013')
    expect(tagged && 'info' in tagged && tagged.info.metadata).toEqual({ n: '1013' })
    // Read in chunks, natively and in JavaScript: protobuf-es's bytes of the same entries, sorted, chunk after chunk.
    const whole = answerOf(await describeDirectory(big, big, users))
    for (const reader of [nativeReader, undefined]) {
      const { count, chunks } = await chunksOf(big, big, users, reader)
      expect(count).toBe(20_000)
      expect(chunks.map((chunk) => entriesOf(chunk).length)).toEqual([
        4096,
        4096,
        4096,
        4096,
        20_000 - 4 * 4096,
      ])
      expect(Buffer.concat(chunks).equals(whole)).toBe(true)
    }
  })

  it('writes natively read chunks as protobuf-es does, for every kind of entry and any shown path', async () => {
    const old = join(dir, 'before 1970')
    writeFileSync(old, '')
    utimesSync(old, -86_400.5, -86_400.5)
    const epoch = join(dir, 'at the epoch')
    writeFileSync(epoch, '')
    utimesSync(epoch, 0, 0)
    const long = join(dir, '漢'.repeat(85))
    writeFileSync(long, '')
    onTestFinished(() => {
      for (const path of [old, epoch, long]) rmSync(path)
    })
    // Symlinks are read where they are shown: every one of these paths leads to `dir`.
    const link = `${dir}-link`
    symlinkSync(dir, link)
    onTestFinished(() => rmSync(link))
    for (const shown of [
      dir,
      `${dir}/`,
      `/${dir}/./`,
      `${dir}/folder/..`,
      relative(process.cwd(), dir),
      link,
    ]) {
      const expected = answerOf(await describeDirectory(dir, shown, users, undefined))
      for (const chunkSize of [1, 3, 4096]) {
        const { chunks } = await chunksOf(dir, shown, users, nativeReader, chunkSize)
        expect(Buffer.concat(chunks).equals(expected), `${shown} in chunks of ${chunkSize}`).toBe(true)
      }
    }
    // Owners and groups of other ids, one without a name, as the same entries described whole say them.
    const owned = alteredReader((name, read, i) => {
      read.uids[i] = name.length % 3 === 0 ? 1 : 54_321
      read.gids[i] = name.length % 2 === 0 ? 0 : 54_322
    })
    const { chunks } = await chunksOf(dir, dir, users, owned, 2)
    expect(Buffer.concat(chunks).equals(answerOf(await describeDirectory(dir, dir, users, owned)))).toBe(true)
    expect(new Set(chunks.flatMap((chunk) => entriesOf(chunk).map((e) => e.owner)))).toContain('54321')
  })

  it('reads a folder in chunks of any size, leaving out an entry gone meanwhile', async () => {
    const { count, chunks } = await chunksOf(dir, dir, users, nativeReader, 3)
    expect(count).toBe(8)
    expect(chunks.map((chunk) => entriesOf(chunk).map((e) => e.name))).toEqual([
      ['broken', 'folder', 'hostile\nname <b>&amp; 🙂 漢字'],
      ['link', 'loop', 'plain.txt'],
      ['setuid', 'with-metadata'],
    ])

    const shrinking = mkdtempSync(join(tmpdir(), 'dir-entries-gone-'))
    onTestFinished(() => rmSync(shrinking, { recursive: true, force: true }))
    for (let i = 0; i < 10; i++) writeFileSync(join(shrinking, `f${i}`), '')
    for (const reader of [nativeReader, undefined]) {
      writeFileSync(join(shrinking, 'f9'), '')
      const listing = await encodeInChunks(shrinking, shrinking, users, reader, 2)
      rmSync(join(shrinking, 'f9'))
      const names: string[] = []
      for await (const chunk of listing.chunks) names.push(...entriesOf(chunk).map((e) => e.name))
      expect(names).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8'])
    }
  })

  it('fails the chunk of an entry that could not be read, for any reason but vanishing', async () => {
    // An lstat that failed with EACCES for one name, ENOENT for another, as the reader reports them.
    const lstatFailed = (errors: Record<string, number>) =>
      alteredReader((name, read, i) => {
        const errno = errors[name]
        if (errno !== undefined) read.errors[i] = errno
      })
    const { chunks } = await encodeInChunks(dir, dir, users, lstatFailed({ 'plain.txt': 13, setuid: 2 }), 3)
    const names: string[] = []
    await expect(
      (async () => {
        for await (const chunk of chunks) names.push(...entriesOf(chunk).map((e) => e.name))
      })(),
    ).rejects.toMatchObject({
      code: 'EACCES',
      message: `EACCES: permission denied, lstat '${dir}/plain.txt'`,
    })
    expect(names).toEqual(['broken', 'folder', 'hostile\nname <b>&amp; 🙂 漢字'])
    const listed = await chunksOf(dir, dir, users, lstatFailed({ setuid: 2 }), 3)
    expect(listed.chunks.flatMap((chunk) => entriesOf(chunk).map((e) => e.name))).not.toContain('setuid')
  })

  it('says why a folder to read in chunks cannot be read, as Node does', async () => {
    const missing = join(dir, 'missing')
    for (const native of [nativeReader, undefined])
      await expect(encodeInChunks(missing, missing, users, native)).rejects.toMatchObject({
        code: 'ENOENT',
        message: `ENOENT: no such file or directory, scandir '${missing}'`,
      })
  })

  it('says why a directory cannot be read, as Node does', async () => {
    const missing = join(dir, 'missing')
    for (const native of [nativeReader, undefined]) {
      const err = (await describeDirectory(missing, missing, users, native).catch((e: unknown) => e)) as {
        code: string
        message: string
      }
      expect(err.code).toBe('ENOENT')
      expect(err.message).toBe(`ENOENT: no such file or directory, scandir '${missing}'`)
    }
    const file = join(dir, 'plain.txt')
    const notDir = (await describeDirectory(file, file, users).catch((e: unknown) => e)) as { code: string }
    expect(notDir.code).toBe('ENOTDIR')
  })
})

describe('byteOrder', () => {
  it("orders names as their UTF-8 bytes do, Go's order", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(byteOrder(a, b))).toBe(Buffer.compare(Buffer.from(a), Buffer.from(b)))
      }),
      { numRuns: 5000 },
    )
    expect(byteOrder('\uffff', '🙂')).toBeLessThan(0)
    expect(byteOrder('a', 'ab')).toBeLessThan(0)
  })
})
