import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toJson } from '@bufbuild/protobuf'
import fc from 'fast-check'
import { setAttribute } from 'fs-xattr'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { EntryInfoSchema } from '../../../src/gen/filesystem_pb'
import { UserDirectory } from '../users'
import { byteOrder } from './byteOrder'
import {
  type DescribedEntry,
  describeDirectory,
  describeInChunks,
  nativeReader,
  readsInChunks,
  vanished,
} from './dirEntries'

const byName = (entries: DescribedEntry[]) =>
  [...entries]
    .sort((a, b) => byteOrder(a.name, b.name))
    .map((e) => ('info' in e ? toJson(EntryInfoSchema, e.info) : e))

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
    // Read in chunks, natively and in JavaScript: the same entries, sorted, chunk after chunk.
    for (const reader of [nativeReader, undefined]) {
      const { count, chunks } = await describeInChunks(big, '/shown', users, reader)
      expect(count).toBe(20_000)
      const sizes: number[] = []
      const chunked: DescribedEntry[] = []
      for await (const chunk of chunks) {
        sizes.push(chunk.length)
        chunked.push(...chunk)
      }
      expect(sizes).toEqual([4096, 4096, 4096, 4096, 20_000 - 4 * 4096])
      expect(chunked.map((e) => e.name)).toEqual(chunked.map((e) => e.name).sort(byteOrder))
      expect(byName(chunked)).toEqual(byName(native))
    }
  })

  it('reads a folder in chunks of any size, an entry gone meanwhile reported as vanished', async () => {
    const { count, chunks } = await describeInChunks(dir, '/shown', users, nativeReader, 3)
    expect(count).toBe(8)
    const first = await chunks.next()
    expect(first.value?.map((e) => e.name)).toEqual(['broken', 'folder', 'hostile\nname <b>&amp; 🙂 漢字'])
    const rest: DescribedEntry[] = []
    for await (const chunk of chunks) rest.push(...chunk)
    expect(rest.map((e) => e.name)).toEqual(['link', 'loop', 'plain.txt', 'setuid', 'with-metadata'])

    const shrinking = mkdtempSync(join(tmpdir(), 'dir-entries-gone-'))
    onTestFinished(() => rmSync(shrinking, { recursive: true, force: true }))
    for (let i = 0; i < 10; i++) writeFileSync(join(shrinking, `f${i}`), '')
    const listing = await describeInChunks(shrinking, shrinking, users, nativeReader, 2)
    rmSync(join(shrinking, 'f9'))
    const all: DescribedEntry[] = []
    for await (const chunk of listing.chunks) all.push(...chunk)
    const gone = all.find((e) => e.name === 'f9')
    expect(gone && 'error' in gone && vanished(gone.error)).toBe(true)
  })

  it('says why a folder to read in chunks cannot be read, as Node does', async () => {
    const missing = join(dir, 'missing')
    for (const native of [nativeReader, undefined])
      await expect(describeInChunks(missing, missing, users, native)).rejects.toMatchObject({
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
