import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { listAttributes } from 'fs-xattr'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { contentDisposition } from './sendFile'
import { fileSignature } from './signing'

/** A raw GET that leaves the body as sent (fetch would undo gzip). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{
    status: number
    headers: Record<string, string | string[] | undefined>
    body: Buffer
  }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      )
      res.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
}

describe('GET and POST /files', () => {
  let rt: TestRuntime
  const at = (...parts: string[]) => join(rt.home, ...parts)
  const filesUrl = (query: Record<string, string>) => `${rt.url}/files?${new URLSearchParams(query)}`
  const get = (query: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(filesUrl(query), { headers: { ...rt.auth, 'Accept-Encoding': 'identity', ...headers } })
  const post = (query: Record<string, string>, body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(filesUrl(query), { method: 'POST', headers: { ...rt.auth, ...headers }, body })
  const octet = (
    path: string,
    data: string | Uint8Array<ArrayBuffer>,
    headers: Record<string, string> = {},
  ) => post({ path }, data, { 'Content-Type': 'application/octet-stream', ...headers })
  const multipart = (files: [string, string][], query: Record<string, string> = {}) => {
    const form = new FormData()
    for (const [name, data] of files) form.append('file', new Blob([data]), name)
    return post(query, form)
  }
  const tempFiles = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.e2b-upload-'))

  beforeAll(async () => {
    rt = await startTestRuntime()
  })
  afterAll(() => rt.close())

  describe('download', () => {
    it('serves a file with the identity encoding like Go ServeContent', async () => {
      writeFileSync(at('hello.txt'), 'hello world')
      const res = await get({ path: 'hello.txt' })
      expect(res.status).toBe(200)
      expect(await res.text()).toBe('hello world')
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(res.headers.get('content-length')).toBe('11')
      expect(res.headers.get('content-disposition')).toBe('inline; filename="hello.txt"')
      expect(res.headers.get('accept-ranges')).toBe('bytes')
      expect(res.headers.get('last-modified')).toBe(statSync(at('hello.txt')).mtime.toUTCString())
    })

    it('answers `attachment` when asked with download=1 (our extension), `inline` otherwise as envd does', async () => {
      writeFileSync(at('notes.txt'), 'save me')
      const saved = await get({ path: 'notes.txt', download: '1' })
      expect(saved.status).toBe(200)
      expect(saved.headers.get('content-disposition')).toBe('attachment; filename="notes.txt"')
      expect(await saved.text()).toBe('save me')
      const other = await get({ path: 'notes.txt', download: 'yes' })
      expect(other.headers.get('content-disposition')).toBe('inline; filename="notes.txt"')
    })

    it('serves a file of /proc as envd does (Stat says 0 bytes: 200, empty) and keeps the connection', async () => {
      // It used to send the file's real bytes after Content-Length: 0, which broke the connection.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      const once = () =>
        new Promise<string>((resolve) => {
          const req = request(filesUrl({ path: '/proc/self/status' }), { agent, headers: rt.auth }, (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () =>
              resolve(`${res.statusCode} ${res.headers['content-length']} ${Buffer.concat(chunks).length}`),
            )
          })
          req.on('error', (err) => resolve(err.message))
          req.end()
        })
      for (let i = 0; i < 5; i++) expect(await once()).toBe('200 0 0')
      agent.destroy()
    })

    it('picks Content-Type by extension, else sniffs text from binary', async () => {
      writeFileSync(at('data.json'), '{}')
      writeFileSync(at('blob'), Buffer.from([0, 1, 2, 3]))
      writeFileSync(at('notes'), 'just text')
      expect((await get({ path: 'data.json' })).headers.get('content-type')).toBe('application/json')
      expect((await get({ path: 'blob' })).headers.get('content-type')).toBe('application/octet-stream')
      expect((await get({ path: 'notes' })).headers.get('content-type')).toBe('text/plain; charset=utf-8')
    })

    it('sends gzip when Accept-Encoding prefers it, with Vary and no length', async () => {
      const content = 'compress me '.repeat(1000)
      writeFileSync(at('big.txt'), content)
      const res = await rawGet(filesUrl({ path: 'big.txt' }), {
        ...rt.auth,
        'Accept-Encoding': 'gzip, deflate, br',
      })
      expect(res.status).toBe(200)
      expect(res.headers['content-encoding']).toBe('gzip')
      expect(res.headers.vary).toBe('Origin, Accept-Encoding')
      expect(res.headers['content-length']).toBeUndefined()
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
      expect(res.headers['content-disposition']).toBe('inline; filename="big.txt"')
      expect(res.body.length).toBeLessThan(content.length)
      expect(gunzipSync(res.body).toString()).toBe(content)
    })

    it('answers a single Range with 206, an impossible one with 416', async () => {
      writeFileSync(at('range.txt'), '0123456789')
      const part = await get({ path: 'range.txt' }, { Range: 'bytes=2-5' })
      expect(part.status).toBe(206)
      expect(part.headers.get('content-range')).toBe('bytes 2-5/10')
      expect(await part.text()).toBe('2345')
      const tail = await get({ path: 'range.txt' }, { Range: 'bytes=-3', 'Accept-Encoding': 'gzip' })
      expect(tail.status).toBe(206)
      expect(tail.headers.get('content-encoding')).toBeNull()
      expect(await tail.text()).toBe('789')
      const bad = await get({ path: 'range.txt' }, { Range: 'bytes=50-' })
      expect(bad.status).toBe(416)
      expect(bad.headers.get('content-range')).toBe('bytes */10')
    })

    it('answers If-Modified-Since with 304 when unchanged', async () => {
      writeFileSync(at('cached.txt'), 'x')
      const first = await get({ path: 'cached.txt' })
      const lastModified = first.headers.get('last-modified') ?? ''
      const again = await get({ path: 'cached.txt' }, { 'If-Modified-Since': lastModified })
      expect(again.status).toBe(304)
      expect(await again.text()).toBe('')
      const older = await get(
        { path: 'cached.txt' },
        { 'If-Modified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' },
      )
      expect(older.status).toBe(200)
    })

    it('answers missing, directory, non-regular and refused encodings as envd does', async () => {
      const missing = await get({ path: 'nope.txt' })
      expect(missing.status).toBe(404)
      expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await missing.json()).toEqual({ code: 404, message: `path '${at('nope.txt')}' does not exist` })
      mkdirSync(at('folder'))
      const dir = await get({ path: 'folder' })
      expect(dir.status).toBe(400)
      expect(await dir.json()).toEqual({ code: 400, message: `path '${at('folder')}' is a directory` })
      execFileSync('mkfifo', [at('pipe')])
      const fifo = await get({ path: 'pipe' })
      expect(fifo.status).toBe(400)
      const refused = await get({ path: 'hello.txt' }, { 'Accept-Encoding': 'identity;q=0' })
      expect(refused.status).toBe(406)
      const nul = await get({ path: 'a\u0000b' })
      expect(nul.status).toBe(400)
      expect((await nul.json()).message).toContain('NUL')
    })

    it('quotes awkward file names in Content-Disposition', async () => {
      expect(contentDisposition('a "b".txt')).toBe('inline; filename="a \\"b\\".txt"')
      expect(contentDisposition('line\nbreak')).toBe('inline; filename="line\\nbreak"')
      writeFileSync(at('caf\u00e9 <b>.txt'), 'x')
      const res = await rawGet(filesUrl({ path: 'caf\u00e9 <b>.txt' }), {
        ...rt.auth,
        'Accept-Encoding': 'identity',
      })
      expect(res.status).toBe(200)
      // The name's UTF-8 bytes go out raw, as Go writes them.
      expect(Buffer.from(String(res.headers['content-disposition']), 'latin1').toString('utf8')).toBe(
        'inline; filename="caf\u00e9 <b>.txt"',
      )
    })
  })

  describe('users and signing', () => {
    it('rejects an unknown username with envd’s lookup message', async () => {
      const res = await get({ path: 'hello.txt', username: 'ghost' })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({
        code: 401,
        message: "error looking up user 'ghost': user: unknown user ghost",
      })
    })

    it('rejects an unknown Basic user like the authn middleware', async () => {
      const res = await get(
        { path: 'hello.txt' },
        { Authorization: `Basic ${Buffer.from('ghost:').toString('base64')}` },
      )
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ code: 'unauthenticated', message: "invalid username: 'ghost'" })
    })

    it('needs the token header or a valid signature, and a wrong header is not rescued', async () => {
      writeFileSync(at('signed.txt'), 'secret')
      const bare = await fetch(filesUrl({ path: 'signed.txt' }))
      expect(bare.status).toBe(401)
      expect(await bare.json()).toEqual({ code: 401, message: 'missing signature query parameter' })
      const token = rt.token ?? ''
      const signature = fileSignature('signed.txt', 'read', '', token)
      const signed = await fetch(filesUrl({ path: 'signed.txt', signature }))
      expect(signed.status).toBe(200)
      expect(await signed.text()).toBe('secret')
      const wrongHeader = await fetch(filesUrl({ path: 'signed.txt', signature }), {
        headers: { 'X-Access-Token': 'x' },
      })
      expect(wrongHeader.status).toBe(401)
      expect((await wrongHeader.json()).message).toBe('access token present in header but does not match')
      const forged = await fetch(filesUrl({ path: 'signed.txt', signature: `${signature}x` }))
      expect((await forged.json()).message).toBe('invalid signature')
    })

    it('checks signature_expiration and the operation', async () => {
      const token = rt.token ?? ''
      const past = Math.floor(Date.now() / 1000) - 10
      const expired = await fetch(
        filesUrl({
          path: 'signed.txt',
          signature: fileSignature('signed.txt', 'read', '', token, past),
          signature_expiration: String(past),
        }),
      )
      expect((await expired.json()).message).toBe('signature is already expired')
      const future = Math.floor(Date.now() / 1000) + 600
      const upload = await fetch(
        filesUrl({
          path: 'via-signed-url.txt',
          signature: fileSignature('via-signed-url.txt', 'write', '', token, future),
          signature_expiration: String(future),
        }),
        { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: 'signed upload' },
      )
      expect(upload.status).toBe(200)
      expect(readFileSync(at('via-signed-url.txt'), 'utf8')).toBe('signed upload')
      const readSigForWrite = await fetch(
        filesUrl({ path: 'x.txt', signature: fileSignature('x.txt', 'read', '', token) }),
        { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: 'no' },
      )
      expect(readSigForWrite.status).toBe(401)
      const garbled = await fetch(
        filesUrl({ path: 'signed.txt', signature: 'v1_x', signature_expiration: 'soon' }),
      )
      expect(garbled.status).toBe(400)
      expect(garbled.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    })

    it('needs nothing when the runtime has no token', async () => {
      const open = await startTestRuntime({ token: undefined })
      try {
        writeFileSync(join(open.home, 'free.txt'), 'free')
        const res = await fetch(`${open.url}/files?path=free.txt`)
        expect(res.status).toBe(200)
        expect(await res.text()).toBe('free')
      } finally {
        await open.close()
      }
    })
  })

  describe('upload', () => {
    it('writes an octet-stream body, creating parents, and answers the small EntryInfo array', async () => {
      const res = await octet('up/deep/a.txt', 'payload')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await res.text()).toBe(
        JSON.stringify([{ path: at('up', 'deep', 'a.txt'), name: 'a.txt', type: 'file' }]),
      )
      expect(readFileSync(at('up', 'deep', 'a.txt'), 'utf8')).toBe('payload')
      expect(statSync(at('up', 'deep')).mode & 0o777).toBe(0o755)
      expect(tempFiles(at('up', 'deep'))).toEqual([])
    })

    it('writes multipart file parts to the full paths in their filenames, ignoring other fields', async () => {
      const form = new FormData()
      form.append('file', new Blob(['one']), at('multi', 'one.txt'))
      form.append('other', 'ignored')
      form.append('file', new Blob(['two']), 'multi/sub/two \u00e9.txt')
      const res = await post({}, form)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual([
        { path: at('multi', 'one.txt'), name: 'one.txt', type: 'file' },
        { path: at('multi', 'sub', 'two \u00e9.txt'), name: 'two \u00e9.txt', type: 'file' },
      ])
      expect(readFileSync(at('multi', 'sub', 'two \u00e9.txt'), 'utf8')).toBe('two')
    })

    it('uses the path query for a single multipart file and refuses a second one', async () => {
      const one = await multipart([['ignored-name', 'content']], { path: 'single/target.txt' })
      expect(await one.json()).toEqual([
        { path: at('single', 'target.txt'), name: 'target.txt', type: 'file' },
      ])
      const two = await multipart(
        [
          ['a', '1'],
          ['b', '2'],
        ],
        { path: 'single/both.txt' },
      )
      expect(two.status).toBe(400)
      expect((await two.json()).message).toContain('you cannot upload multiple files to the same path')
    })

    it('answers 400 for multipart bodies it cannot parse', async () => {
      const noBoundary = await post({ path: 'x.txt' }, 'data', { 'Content-Type': 'multipart/form-data' })
      expect(noBoundary.status).toBe(400)
      const truncated = await post(
        {},
        '--b\r\nContent-Disposition: form-data; name="file"; filename="t.txt"\r\n\r\nda',
        {
          'Content-Type': 'multipart/form-data; boundary=b',
        },
      )
      expect(truncated.status).toBe(400)
      expect(existsSync(at('t.txt'))).toBe(false)
      expect(tempFiles(rt.home)).toEqual([])
    })

    it('answers [] for a multipart body without file parts', async () => {
      const form = new FormData()
      form.append('note', 'hello')
      const res = await post({}, form)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual([])
    })

    it('takes a `file` part without a filename (a plain form field), as envd does', async () => {
      const form = new FormData()
      form.append('file', 'written from a form field, ünïcode')
      const res = await post({ path: 'field/a.txt' }, form)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual([{ path: at('field', 'a.txt'), name: 'a.txt', type: 'file' }])
      expect(readFileSync(at('field', 'a.txt'), 'utf8')).toBe('written from a form field, ünïcode')
      // Without a path query nor a filename, the target is the home folder itself.
      const nowhere = new FormData()
      nowhere.append('file', 'x')
      expect((await post({}, nowhere)).status).toBe(400)
    })

    it('decompresses a gzip request body and refuses other encodings', async () => {
      const res = await octet('gz.txt', new Uint8Array(gzipSync('was gzipped')), {
        'Content-Encoding': 'gzip',
      })
      expect(res.status).toBe(200)
      expect(readFileSync(at('gz.txt'), 'utf8')).toBe('was gzipped')
      const br = await octet('br.txt', 'x', { 'Content-Encoding': 'br' })
      expect(br.status).toBe(400)
      const corrupt = await octet('corrupt.txt', 'not gzip at all', { 'Content-Encoding': 'gzip' })
      expect(corrupt.status).toBe(400)
      expect(existsSync(at('corrupt.txt'))).toBe(false)
      expect(tempFiles(rt.home)).toEqual([])
    })

    it('answers 400 for a bad content type, a missing path, a directory target or a bad path', async () => {
      expect((await post({ path: 'x' }, 'x', { 'Content-Type': 'text/plain' })).status).toBe(400)
      const noPath = await post({}, 'x', { 'Content-Type': 'application/octet-stream' })
      expect(noPath.status).toBe(400)
      mkdirSync(at('a-dir'))
      const dir = await octet('a-dir', 'x')
      expect(dir.status).toBe(400)
      expect(await dir.json()).toEqual({ code: 400, message: `path '${at('a-dir')}' is a directory` })
      expect((await octet('~nobody/x', 'x')).status).toBe(400)
    })

    it('answers 500 when a parent is a file', async () => {
      writeFileSync(at('blocker'), 'x')
      const res = await octet('blocker/child.txt', 'x')
      expect(res.status).toBe(500)
      expect(await res.json()).toEqual({
        code: 500,
        message: `error ensuring directories: path is a file: ${at('blocker')}`,
      })
    })

    it('overwrites an existing file keeping its mode, and writes through a symlink', async () => {
      writeFileSync(at('script.sh'), 'old old old')
      chmodSync(at('script.sh'), 0o750)
      await octet('script.sh', 'new')
      expect(readFileSync(at('script.sh'), 'utf8')).toBe('new')
      expect(statSync(at('script.sh')).mode & 0o777).toBe(0o750)
      symlinkSync('script.sh', at('script-link'))
      await octet('script-link', 'via link')
      expect(lstatSync(at('script-link')).isSymbolicLink()).toBe(true)
      expect(readFileSync(at('script.sh'), 'utf8')).toBe('via link')
    })

    it('stores X-Metadata-* as user.e2b.* xattrs, replacing earlier metadata', async () => {
      const res = await octet('meta.txt', 'x', { 'X-Metadata-Owner': 'alice', 'X-Metadata-Build': '7' })
      expect(await res.json()).toEqual([
        { path: at('meta.txt'), name: 'meta.txt', type: 'file', metadata: { owner: 'alice', build: '7' } },
      ])
      const stat = await rt.fs.stat({ path: 'meta.txt' })
      expect(stat.entry?.metadata).toEqual({ owner: 'alice', build: '7' })
      await octet('meta.txt', 'y', { 'X-Metadata-Owner': 'bob' })
      expect((await rt.fs.stat({ path: 'meta.txt' })).entry?.metadata).toEqual({ owner: 'bob' })
      await octet('meta.txt', 'z')
      expect(await listAttributes(at('meta.txt'))).toEqual([])
      const bad = await octet('meta.txt', 'w', { 'X-Metadata-K': 'x'.repeat(5000) })
      expect(bad.status).toBe(400)
      expect(readFileSync(at('meta.txt'), 'utf8')).toBe('z')
    })

    it('gives uploaded files and created parents to the user named in the query', async () => {
      if (process.getuid?.() !== 0) return
      mkdirSync(at('shared'))
      chmodSync(at('shared'), 0o777)
      const res = await octet(at('shared', 'new', 'f.txt'), 'x')
      expect(res.status).toBe(200)
      const asNobody = await post({ path: at('shared', 'n', 'f.txt'), username: 'nobody' }, 'x', {
        'Content-Type': 'application/octet-stream',
      })
      expect(asNobody.status).toBe(200)
      expect(statSync(at('shared', 'n', 'f.txt')).uid).toBe(65534)
      expect(statSync(at('shared', 'n')).uid).toBe(65534)
    })

    it('leaves no file and no temporary behind when the client aborts mid-upload', async () => {
      writeFileSync(at('keep.txt'), 'original')
      for (const target of ['aborted.txt', 'keep.txt']) {
        await new Promise<void>((resolve) => {
          const req = request(filesUrl({ path: target }), {
            method: 'POST',
            headers: { ...rt.auth, 'Content-Type': 'application/octet-stream', 'Content-Length': '1000000' },
          })
          req.on('error', () => resolve())
          req.write('partial data', () => setTimeout(() => req.destroy(), 50))
        })
        await vi.waitFor(() => expect(tempFiles(rt.home)).toEqual([]), { timeout: 5000, interval: 20 })
      }
      expect(existsSync(at('aborted.txt'))).toBe(false)
      expect(readFileSync(at('keep.txt'), 'utf8')).toBe('original')
    })

    it('streams a 100 MiB upload to disk as it arrives, and back', async () => {
      const chunk = Buffer.alloc(1024 * 1024, 'abcdefgh')
      const chunks = 100
      const expected = createHash('sha256')
      for (let i = 0; i < chunks; i++) expected.update(chunk)
      mkdirSync(at('bigdir'))
      const onDisk = () =>
        tempFiles(at('bigdir')).reduce((sum, name) => sum + statSync(at('bigdir', name)).size, 0)
      let sent = 0
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent === chunks / 2) {
            // Half-way, the server must already have written most of it: a server that held
            // the upload in memory would never get there, and this wait would time out.
            await vi.waitFor(() => expect(onDisk()).toBeGreaterThanOrEqual(40 * chunk.length), {
              timeout: 10_000,
              interval: 20,
            })
          }
          if (sent++ < chunks) controller.enqueue(new Uint8Array(chunk))
          else controller.close()
        },
      })
      const res = await fetch(filesUrl({ path: 'bigdir/big.bin' }), {
        method: 'POST',
        headers: { ...rt.auth, 'Content-Type': 'application/octet-stream' },
        body,
        duplex: 'half',
      } as RequestInit)
      expect(res.status).toBe(200)
      expect(statSync(at('bigdir', 'big.bin')).size).toBe(chunks * chunk.length)
      expect(tempFiles(at('bigdir'))).toEqual([])
      const download = await get({ path: 'bigdir/big.bin' })
      const actual = createHash('sha256')
      for await (const part of download.body as unknown as AsyncIterable<Uint8Array>) actual.update(part)
      expect(actual.digest('hex')).toBe(expected.digest('hex'))
    })
  })
})
