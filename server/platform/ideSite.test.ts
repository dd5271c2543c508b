import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { precompress } from '../../scripts/precompress'
import { ideSite } from './ideSite'

describe('ideSite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ide-site-'))
  let server: Server
  let base = ''
  beforeAll(async () => {
    server = createServer(ideSite(dir))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => {
    server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('says how to build the IDE until it is built, and then serves the app for every path it routes', async () => {
    const before = await fetch(`${base}/some/route`)
    expect(before.status).toBe(503)
    expect(await before.text()).toMatch(/^The IDE is not built yet/)
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>IDE</title>')
    const after = await fetch(`${base}/some/route`)
    expect(after.status).toBe(200)
    expect(await after.text()).toContain('<title>IDE</title>')
  })

  it('answers any method but GET and HEAD with 405 and what it allows, built or not', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await fetch(`${base}/pause`, { method, body: method === 'DELETE' ? undefined : '{}' })
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('GET, HEAD')
    }
  })

  /** A raw GET (fetch would decompress): status, headers and the bytes as sent. */
  function rawGet(path: string, acceptEncoding: string) {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        request(`${base}${path}`, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          )
        })
          .on('error', reject)
          .end()
      },
    )
  }

  it('sends the build’s brotli or gzip copy to a browser that takes it, and caches hashed assets for good', async () => {
    const script = `export const words = ${JSON.stringify('sandbox '.repeat(2000))}\n`
    mkdirSync(join(dir, 'assets'), { recursive: true })
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), script)
    writeFileSync(join(dir, 'index.html'), `<!doctype html><title>IDE</title>${' '.repeat(2000)}`)
    await precompress(dir)

    const br = await rawGet('/assets/index-abc123.js', 'gzip, deflate, br')
    expect(br.status).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(brotliDecompressSync(br.body).toString()).toBe(script)
    expect(br.body.length).toBeLessThan(script.length / 10)

    const gz = await rawGet('/assets/index-abc123.js', 'gzip')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.body).toString()).toBe(script)

    const plain = await rawGet('/assets/index-abc123.js', 'identity')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toBe(script)

    // The page itself is checked each time: it names the new build's assets.
    const page = await rawGet('/some/route', 'br')
    expect(page.headers['cache-control']).toBe('no-cache')
    expect(brotliDecompressSync(page.body).toString()).toContain('<title>IDE</title>')
  })
})
