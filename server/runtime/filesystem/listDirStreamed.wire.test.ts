// A big ListDir answer leaves the runtime as it is read: the raw bytes on the wire, against the
// whole answer the old path makes, and the order of what happens in the runtime.
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { create, toBinary, toJsonString } from '@bufbuild/protobuf'
import { setAttribute } from 'fs-xattr'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { ListDirRequestSchema, ListDirResponseSchema } from '../../../src/gen/filesystem_pb'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { UserDirectory } from '../users'
import { nativeReader } from './dirEntries'
import { listDir } from './listDir'

/** One raw answer: status, headers, body as sent, and what had happened when each piece arrived. */
interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  /** The mark of `progress()` as each piece of the body arrived. */
  marks: number[]
}

describe('ListDir of a big folder, streamed', () => {
  let rt: TestRuntime
  const at = (...parts: string[]) => join(rt.home, ...parts)
  const count = 100_000

  /** A ListDir over HTTP/1.1 (binary, or JSON as the SDKs ask), read piece by piece; `progress` is read as each piece arrives. */
  const listRaw = (
    path: string,
    headers: Record<string, string>,
    progress: () => number = () => 0,
    encoding: 'proto' | 'json' = 'proto',
  ) =>
    new Promise<RawAnswer>((resolve, reject) => {
      const message = create(ListDirRequestSchema, { path, depth: 1 })
      const body =
        encoding === 'proto'
          ? toBinary(ListDirRequestSchema, message)
          : toJsonString(ListDirRequestSchema, message)
      const req = request(
        `${rt.url}/filesystem.Filesystem/ListDir`,
        { method: 'POST', headers: { 'Content-Type': `application/${encoding}`, ...rt.auth, ...headers } },
        (res) => {
          const pieces: Buffer[] = []
          const marks: number[] = []
          res.on('data', (piece: Buffer) => {
            marks.push(progress())
            pieces.push(piece)
          })
          res.on('error', reject)
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(pieces),
              marks,
            }),
          )
        },
      )
      req.on('error', reject)
      req.end(body)
    })

  /** The old whole answer: listDir's entries, as protobuf-es itself writes them. */
  const wholeMessage = async (path: string) =>
    create(ListDirResponseSchema, {
      entries: await listDir(path, 1, new UserDirectory(userInfo().username, rt.home)),
    })
  const wholeAnswer = async (path: string) =>
    Buffer.from(toBinary(ListDirResponseSchema, await wholeMessage(path)))
  const wholeJson = async (path: string) => toJsonString(ListDirResponseSchema, await wholeMessage(path))

  beforeAll(async () => {
    rt = await startTestRuntime()
    mkdirSync(at('big'))
    for (let i = 0; i < count; i++) {
      // Some names of 240 bytes and a newline: entries past 127 bytes, whose length takes two.
      const name = at('big', i % 9001 === 0 ? `${'漢'.repeat(80)}\n${i}` : `entry-${i}-é`)
      if (i % 9973 === 0) symlinkSync(`entry-${i + 1}-é`, name)
      else if (i % 10007 === 0) mkdirSync(name)
      else {
        writeFileSync(name, 'x'.repeat(i % 10039 === 0 ? 70_000 : i % 5))
        // Times before 1970 and at it, which the runtime writes otherwise.
        if (i % 10061 === 0) utimesSync(name, -86_400.25, -86_400.25)
        if (i % 10067 === 0) utimesSync(name, 0, 0)
      }
      // user.* attributes cannot be set on a symlink itself (setAttribute would follow it).
      if (i % 10009 === 0 && i % 9973 !== 0) await setAttribute(name, 'user.e2b.n', String(i))
    }
  }, 120_000)
  afterAll(() => rt.close())

  it('sends its first bytes before the runtime has read every entry, and the same bytes as a whole answer', async () => {
    expect(nativeReader).toBeDefined()
    const reader = nativeReader as NonNullable<typeof nativeReader>
    // Chunks the runtime has read so far, counted where it reads them.
    let read = 0
    const statDirEntries = reader.statDirEntries.bind(reader)
    const spy = vi.spyOn(reader, 'statDirEntries').mockImplementation(async (...args) => {
      const chunk = await statDirEntries(...args)
      read++
      return chunk
    })
    onTestFinished(() => spy.mockRestore())
    const answer = await listRaw('big', { 'Accept-Encoding': 'gzip' }, () => read)
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/proto')
    expect(answer.headers['content-encoding']).toBe('gzip')
    expect(answer.headers['content-length']).toBeUndefined()
    const chunks = Math.ceil(count / 4096)
    expect(read).toBe(chunks)
    // The first piece arrived while most chunks were still to be read; the last once all were.
    expect(answer.marks[0]).toBeLessThan(chunks / 2)
    expect(answer.marks.at(-1)).toBe(chunks)
    expect(gunzipSync(answer.body).equals(await wholeAnswer(at('big')))).toBe(true)
  }, 60_000)

  it('sends the same bytes uncompressed to a client that does not accept gzip', async () => {
    const answer = await listRaw('big', { 'Accept-Encoding': 'identity' })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-encoding']).toBeUndefined()
    expect(answer.headers['content-length']).toBeUndefined()
    expect(answer.body.equals(await wholeAnswer(at('big')))).toBe(true)
  }, 60_000)

  it('sends the SDKs their JSON as it is read too: the text toJsonString writes for the whole', async () => {
    const answer = await listRaw('big', { 'Accept-Encoding': 'gzip' }, undefined, 'json')
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.headers['content-encoding']).toBe('gzip')
    expect(answer.headers['content-length']).toBeUndefined()
    expect(answer.marks.length).toBeGreaterThan(1)
    expect(gunzipSync(answer.body).toString()).toBe(await wholeJson(at('big')))
    const plain = await listRaw('big', { 'Accept-Encoding': 'identity' }, undefined, 'json')
    expect(plain.body.toString()).toBe(await wholeJson(at('big')))
  }, 60_000)

  it('answers a small folder whole, as before, with its length', async () => {
    mkdirSync(at('small'))
    for (let i = 0; i < 100; i++) writeFileSync(at('small', `f${i}`), '')
    const answer = await listRaw('small', { 'Accept-Encoding': 'gzip' })
    expect(answer.headers['content-length']).toBe(String(answer.body.length))
    expect(gunzipSync(answer.body).equals(await wholeAnswer(at('small')))).toBe(true)
    const json = await listRaw('small', { 'Accept-Encoding': 'identity' }, undefined, 'json')
    expect(json.headers['content-length']).toBe(String(json.body.length))
    expect(json.body.toString()).toBe(await wholeJson(at('small')))
  })

  it('answers a missing folder with the Connect error, before any entry', async () => {
    const answer = await listRaw('nowhere', { 'Accept-Encoding': 'gzip' })
    expect(answer.status).toBe(404)
    expect(answer.headers['content-type']).toBe('application/json')
    expect(JSON.parse(answer.body.toString())).toEqual({
      code: 'not_found',
      message: `path not found: ${at('nowhere')}`,
    })
  })

  it('cuts the connection when a chunk fails after the first bytes went, so no client takes part of a list for all of it', async () => {
    const reader = nativeReader as NonNullable<typeof nativeReader>
    const statDirEntries = reader.statDirEntries.bind(reader)
    let calls = 0
    const spy = vi.spyOn(reader, 'statDirEntries').mockImplementation(async (...args) => {
      if (++calls === 6) throw Object.assign(new Error('EIO: i/o error, scandir'), { code: 'EIO' })
      return statDirEntries(...args)
    })
    onTestFinished(() => spy.mockRestore())
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    onTestFinished(() => error.mockRestore())
    await expect(listRaw('big', { 'Accept-Encoding': 'gzip' })).rejects.toThrow(
      /aborted|socket hang up|ECONNRESET/,
    )
  }, 60_000)

  it('keeps answering other calls while it sends a big listing', async () => {
    const listing = listRaw('big', {})
    const stat = await rt.fs.stat({ path: 'big' })
    expect(stat.entry?.name).toBe('big')
    expect((await listing).status).toBe(200)
  }, 60_000)
})
