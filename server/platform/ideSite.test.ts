import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
})
