// The IDE API answers only its own page: loopback or configured Host, the X-Sandbox-IDE header,
// no cross-site Sec-Fetch-Site, never CORS; and bad input gets 400/413 with a clear message.
import type { IncomingMessage } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { rawRequest } from '../testing/rawHttp'
import { guardIdeRequest } from './ideRequestGuard'

const hostRefused = {
  code: 403,
  message:
    'the IDE API answers only on a loopback host name (localhost, 127.0.0.1, [::1]), the configured --host or --domain (or any address of a stack on 0.0.0.0)',
}

describe('IDE API guard', () => {
  let tp: TestPlatform
  const stack = (headers: Record<string, string>, method = 'GET') =>
    rawRequest({
      port: tp.platform.port,
      method,
      path: '/ide/api/stack',
      headers: { Authorization: `Bearer ${tp.platform.ideToken.current()}`, ...headers },
    })

  beforeAll(async () => {
    tp = await startTestPlatform()
  })
  afterAll(() => tp.close())

  it('answers on every loopback host name, with any port or none', async () => {
    for (const host of [
      'localhost',
      `localhost:${tp.platform.port}`,
      '127.0.0.1:1',
      '[::1]:8787',
      'LocalHost',
    ]) {
      const res = await stack({ Host: host, 'X-Sandbox-IDE': '1' })
      expect(res.status, host).toBe(200)
      expect(JSON.parse(res.text).isolation).toBe(tp.platform.launcher.isolation)
    }
  })

  it('refuses any other Host with 403, as a DNS-rebinding page would send it', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${tp.platform.port}`,
      'localhost.evil.example',
      '127.0.0.2',
      'a.localhost',
      'localhost:x',
    ]) {
      const res = await stack({ Host: host, 'X-Sandbox-IDE': '1' })
      expect(res.status, host).toBe(403)
      expect(JSON.parse(res.text)).toEqual(hostRefused)
    }
  })

  it('answers on the configured --host and --domain too', () => {
    const req = (host: string) => ({ headers: { host, 'x-sandbox-ide': '1' } }) as unknown as IncomingMessage
    expect(() => guardIdeRequest(req('192.168.1.5:8787'), '192.168.1.5')).not.toThrow()
    expect(() => guardIdeRequest(req('[fd00::5]:8787'), 'fd00::5')).not.toThrow()
    expect(() => guardIdeRequest(req('192.168.1.6:8787'), '192.168.1.5')).toThrow(hostRefused.message)
    expect(() => guardIdeRequest(req('class.test:8787'), '0.0.0.0', 'class.test')).not.toThrow()
    // On every address: any of its addresses, never a name.
    expect(() => guardIdeRequest(req('192.0.2.2:8787'), '0.0.0.0')).not.toThrow()
    expect(() => guardIdeRequest(req('[fd00::5]:8787'), '::')).not.toThrow()
    expect(() => guardIdeRequest(req('evil.example:8787'), '0.0.0.0')).toThrow(hostRefused.message)
    // Not a name under it: those are sandboxes' names, never the IDE's.
    expect(() => guardIdeRequest(req('x.class.test:8787'), '0.0.0.0', 'class.test')).toThrow(
      hostRefused.message,
    )
  })

  it('refuses a request without X-Sandbox-IDE: 1 with 403', async () => {
    const variants: Record<string, string>[] = [{}, { 'X-Sandbox-IDE': '0' }, { 'X-Sandbox-IDE': 'true' }]
    for (const headers of variants) {
      const res = await stack({ Host: 'localhost', ...headers })
      expect(res.status).toBe(403)
      expect(JSON.parse(res.text)).toEqual({
        code: 403,
        message: 'the IDE API needs the request header X-Sandbox-IDE: 1',
      })
    }
  })

  it('refuses a Sec-Fetch-Site other than same-origin or none with 403', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await stack({ Host: 'localhost', 'X-Sandbox-IDE': '1', 'Sec-Fetch-Site': site })
      expect(res.status).toBe(403)
      expect(JSON.parse(res.text)).toEqual({
        code: 403,
        message: `the IDE API refuses requests from other sites (Sec-Fetch-Site: ${site})`,
      })
    }
    for (const site of ['same-origin', 'none']) {
      expect((await stack({ Host: 'localhost', 'X-Sandbox-IDE': '1', 'Sec-Fetch-Site': site })).status).toBe(
        200,
      )
    }
  })

  it('never answers CORS: a cross-origin preflight gets 403 and no Access-Control headers', async () => {
    const res = await stack(
      {
        Host: 'localhost',
        Origin: 'http://evil.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-sandbox-ide',
      },
      'OPTIONS',
    )
    expect(res.status).toBe(403)
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([])
    const withOrigin = await stack({ Host: 'localhost', 'X-Sandbox-IDE': '1', Origin: 'http://evil.example' })
    expect(withOrigin.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('answers unknown paths with 404 and wrong methods with 405 and Allow', async () => {
    const missing = await ideCall(tp.platform, 'GET', '/nothing')
    expect(missing.status).toBe(404)
    expect(missing.json).toEqual({ code: 404, message: 'no such endpoint: GET /ide/api/nothing' })
    const wrong = await ideCall(tp.platform, 'PUT', '/sandboxes')
    expect(wrong.status).toBe(405)
    expect(wrong.json).toEqual({ code: 405, message: 'method PUT is not allowed on /ide/api/sandboxes' })
    expect(wrong.headers.allow).toBe('GET, POST')
  })

  it('answers bad bodies and ids with 400 and says what is wrong, before doing anything', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', '/sandboxes', '{oops', 'malformed JSON'],
      ['POST', '/sandboxes', '[]', 'invalid request body'],
      ['POST', '/sandboxes', { timeoutSeconds: 'long' }, "invalid request body at 'timeoutSeconds'"],
      ['POST', '/sandboxes', { timeoutSeconds: 0 }, "invalid request body at 'timeoutSeconds'"],
      ['POST', '/sandboxes', { timeoutSeconds: 60, template: 'x' }, 'template'],
      ['POST', `/sandboxes/${'a'.repeat(20)}/timeout`, {}, "invalid request body at 'seconds'"],
      ['POST', `/sandboxes/${'a'.repeat(20)}/timeout`, { seconds: 7 * 86400 + 1 }, "at 'seconds'"],
      ['GET', '/sandboxes/AB$CD/session', undefined, 'invalid sandbox id'],
      ['GET', '/sandboxes/..%2f..%2fetc/session', undefined, 'invalid sandbox id'],
      ['POST', '/remotes', { apiKey: 'k', surprise: 1 }, 'surprise'],
      ['POST', '/remotes', { apiKey: 'has space' }, "at 'apiKey'"],
      ['POST', '/remotes', { apiKey: 'k', domain: 'a/b' }, "at 'domain'"],
      ['POST', '/remotes', { apiKey: 'k', apiUrl: 'ftp://example.com' }, 'http or https'],
      ['POST', '/remotes', { apiKey: 'k', apiUrl: 'http://example.com' }, 'must use https'],
      ['POST', '/remotes', { apiKey: 'k', apiUrl: 'https://u:p@example.com' }, 'credentials'],
      ['POST', '/remotes', { apiKey: 'k', apiUrl: 'https://example.com/?a=1' }, 'query'],
      ['GET', '/remotes/nothex/sandboxes/abc/session', undefined, 'invalid remote id'],
    ]
    for (const [method, path, body, says] of cases) {
      const res = await ideCall(tp.platform, method, path, body)
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400)
      expect(res.json.code).toBe(400)
      expect(res.json.message).toContain(says)
    }
    const notJson = await ideCall(tp.platform, 'POST', '/sandboxes', '{}', {
      'Content-Type': 'text/plain',
    })
    expect(notJson.json).toEqual({
      code: 400,
      message: "request body must be application/json, not 'text/plain'",
    })
    // A malformed body is not quoted back: it may hold a key.
    const quoted = await ideCall(tp.platform, 'POST', '/remotes', '{"apiKey": sk_secret_key')
    expect(quoted.json).toEqual({ code: 400, message: 'malformed JSON in the request body' })
    expect(tp.platform.manager.list()).toEqual([])
  })

  it('refuses a body over 64 KiB with 413', async () => {
    const res = await ideCall(tp.platform, 'POST', '/remotes', { apiKey: 'x'.repeat(70 * 1024) })
    expect(res.status).toBe(413)
    expect(res.json).toEqual({ code: 413, message: 'request body too large (limit 65536 bytes)' })
  })
})
