import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { fromBinary } from '@bufbuild/protobuf'
import { Code, ConnectError } from '@connectrpc/connect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FileType, ListDirResponseSchema } from '../../../src/gen/filesystem_pb'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { UserDirectory } from '../users'
import { listDir, listDirInChunks } from './listDir'

describe('ListDir through the generated client', () => {
  let rt: TestRuntime
  const at = (...parts: string[]) => join(rt.home, ...parts)
  const names = async (path: string, depth = 0) =>
    (await rt.fs.listDir({ path, depth })).entries.map((e) => e.path.slice(at('tree').length + 1))

  beforeAll(async () => {
    rt = await startTestRuntime()
    // tree/
    //   B.txt  a/ (x.txt, y/ (z.txt, deep/ (bottom.txt)))  b.txt  link-to-a -> a  Z/  é.txt
    mkdirSync(at('tree', 'a', 'y', 'deep'), { recursive: true })
    mkdirSync(at('tree', 'Z'))
    writeFileSync(at('tree', 'b.txt'), 'b')
    writeFileSync(at('tree', 'B.txt'), 'B')
    writeFileSync(at('tree', '\u00e9.txt'), 'e')
    writeFileSync(at('tree', 'a', 'x.txt'), 'x')
    writeFileSync(at('tree', 'a', 'y', 'z.txt'), 'z')
    writeFileSync(at('tree', 'a', 'y', 'deep', 'bottom.txt'), 'bottom')
    symlinkSync('a', at('tree', 'link-to-a'))
  })
  afterAll(() => rt.close())

  it('treats depth 0 as 1: direct children only, in byte order, never the directory itself', async () => {
    expect(await names('tree')).toEqual(['B.txt', 'Z', 'a', 'b.txt', 'link-to-a', '\u00e9.txt'])
    expect(await names('tree', 1)).toEqual(await names('tree'))
  })

  it('walks depth-first in pre-order up to the depth, without entering symlinked directories', async () => {
    expect(await names('tree', 2)).toEqual([
      'B.txt',
      'Z',
      'a',
      'a/x.txt',
      'a/y',
      'b.txt',
      'link-to-a',
      '\u00e9.txt',
    ])
    expect(await names('tree', 10)).toEqual([
      'B.txt',
      'Z',
      'a',
      'a/x.txt',
      'a/y',
      'a/y/deep',
      'a/y/deep/bottom.txt',
      'a/y/z.txt',
      'b.txt',
      'link-to-a',
      '\u00e9.txt',
    ])
  })

  it('lists through a symlinked root, reporting paths under the name that was asked for', async () => {
    const { entries } = await rt.fs.listDir({ path: at('tree', 'link-to-a') })
    expect(entries.map((e) => e.path)).toEqual([
      at('tree', 'link-to-a', 'x.txt'),
      at('tree', 'link-to-a', 'y'),
    ])
  })

  it('fills each entry like Stat does (types, sizes as bigint, symlink targets)', async () => {
    const { entries } = await rt.fs.listDir({ path: 'tree' })
    const byName = new Map(entries.map((e) => [e.name, e]))
    expect(byName.get('b.txt')).toMatchObject({ type: FileType.FILE, size: 1n, mode: 0o644 })
    expect(byName.get('a')).toMatchObject({ type: FileType.DIRECTORY, permissions: 'drwxr-xr-x' })
    expect(byName.get('link-to-a')).toMatchObject({
      type: FileType.DIRECTORY,
      permissions: 'Lrwxrwxrwx',
      symlinkTarget: at('tree', 'a'),
    })
    expect(byName.get('b.txt')?.modifiedTime?.seconds).toBeGreaterThan(0n)
  })

  it('reports not_found, invalid_argument and failed_precondition as ConnectErrors', async () => {
    await expect(rt.fs.listDir({ path: 'tree/none' })).rejects.toMatchObject({ code: Code.NotFound })
    await expect(rt.fs.listDir({ path: 'tree/b.txt' })).rejects.toMatchObject({ code: Code.InvalidArgument })
    symlinkSync('self', at('self'))
    const err = await rt.fs.listDir({ path: 'self' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConnectError)
    expect((err as ConnectError).code).toBe(Code.FailedPrecondition)
  })

  it('lists a large directory completely', async () => {
    mkdirSync(at('many'))
    for (let i = 0; i < 500; i++) writeFileSync(at('many', `f${String(i).padStart(3, '0')}`), '')
    const { entries } = await rt.fs.listDir({ path: 'many' })
    expect(entries).toHaveLength(500)
    expect(entries[0]?.name).toBe('f000')
    expect(entries[499]?.name).toBe('f499')
  })

  it('refuses a listing of more entries than its limit with resource_exhausted', async () => {
    const users = new UserDirectory(userInfo().username, rt.home)
    expect(await listDir(at('many'), 1, users, 500)).toHaveLength(500)
    await expect(listDir(at('many'), 1, users, 499)).rejects.toMatchObject({
      code: Code.ResourceExhausted,
      rawMessage: `more than 499 entries under ${at('many')} at depth 1: list with a smaller depth`,
    })
    // The same refusal where a listing is read in chunks, before its first chunk.
    await expect(listDirInChunks(at('many'), users, 499)).rejects.toMatchObject({
      code: Code.ResourceExhausted,
      rawMessage: `more than 499 entries under ${at('many')} at depth 1: list with a smaller depth`,
    })
    const { count, chunks } = await listDirInChunks(at('many'), users, 500)
    const chunked: Buffer[] = []
    for await (const chunk of chunks) chunked.push(chunk)
    expect(count).toBe(500)
    expect(fromBinary(ListDirResponseSchema, Buffer.concat(chunked)).entries).toEqual(
      await listDir(at('many'), 1, users),
    )
  })

  it('still works after the tree changes between calls', async () => {
    renameSync(at('tree', 'Z'), at('tree', 'Y'))
    expect(await names('tree')).toContain('Y')
    expect(await names('tree')).not.toContain('Z')
  })
})

describe('Stat, MakeDir, Move and Remove through the generated client', () => {
  let rt: TestRuntime
  beforeAll(async () => {
    rt = await startTestRuntime()
  })
  afterAll(() => rt.close())

  it('creates, stats, moves and removes', async () => {
    const made = await rt.fs.makeDir({ path: 'work/src' })
    expect(made.entry).toMatchObject({
      name: 'src',
      type: FileType.DIRECTORY,
      path: join(rt.home, 'work/src'),
    })
    await expect(rt.fs.makeDir({ path: 'work/src' })).rejects.toMatchObject({ code: Code.AlreadyExists })
    writeFileSync(join(rt.home, 'work/src/main.ts'), 'export {}\n')
    const stat = await rt.fs.stat({ path: '~/work/src/main.ts' })
    expect(stat.entry?.size).toBe(10n)
    const moved = await rt.fs.move({ source: 'work/src', destination: 'work/lib' })
    expect(moved.entry?.path).toBe(join(rt.home, 'work/lib'))
    await expect(rt.fs.stat({ path: 'work/src' })).rejects.toMatchObject({ code: Code.NotFound })
    await rt.fs.remove({ path: 'work' })
    await expect(rt.fs.stat({ path: 'work' })).rejects.toMatchObject({ code: Code.NotFound })
  })
})
