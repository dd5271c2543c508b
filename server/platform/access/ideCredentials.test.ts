// The IDE API and the embed demo's session answer only the person who started the stack: a tool
// with the IDE's token, or a browser signed in with it (an HttpOnly cookie and a page key, both).
// Every header a browser sends is forged here too: none of them opens anything alone.
import { statSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { rawRequest } from '../testing/rawHttp'
import { IdeToken } from './ideToken'

describe('IDE credentials', () => {
  let tp: TestPlatform
  /** Headers a same-origin page of the IDE sends, all of them forgeable by any program. */
  let browserHeaders: Record<string, string>
  const anonymous = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    ideCall(tp.platform, method, path, body, { Authorization: '', ...browserHeaders, ...headers })

  beforeAll(async () => {
    tp = await startTestPlatform()
    const origin = `http://127.0.0.1:${tp.platform.port}`
    browserHeaders = {
      Host: `127.0.0.1:${tp.platform.port}`,
      Origin: origin,
      Referer: `${origin}/`,
      'Sec-Fetch-Site': 'same-origin',
      'Sec-Fetch-Mode': 'cors',
      'Sec-Fetch-Dest': 'empty',
      'X-Sandbox-IDE': '1',
    }
  })
  afterAll(() => tp.close())

  const signIn = async (token = tp.platform.ideToken.current()) => {
    const res = await anonymous('POST', '/auth', { token })
    const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0] ?? ''
    return { res, cookie, pageKey: res.json?.pageKey as string }
  }

  it('refuses every route without a credential with 401, says where the link is, and does nothing', async () => {
    const id = 'a'.repeat(20)
    const routes: [string, string, unknown?][] = [
      ['GET', '/stack'],
      ['GET', '/auth'],
      ['GET', '/sandboxes'],
      ['POST', '/sandboxes', {}],
      ['GET', '/templates'],
      ['DELETE', `/sandboxes/${id}`],
      ['GET', `/sandboxes/${id}/session`],
      ['POST', `/sandboxes/${id}/pause`],
      ['POST', `/sandboxes/${id}/resume`, {}],
      ['POST', `/sandboxes/${id}/timeout`, { seconds: 60 }],
      ['GET', '/remotes'],
      ['POST', '/remotes', { apiKey: 'k' }],
      ['GET', `/remotes/${'0'.repeat(16)}/sandboxes/${id}/session`],
      ['GET', '/no-such-route'],
      ['PUT', '/sandboxes'],
    ]
    for (const [method, path, body] of routes) {
      const res = await anonymous(method, path, body)
      expect(res.status, `${method} ${path}`).toBe(401)
      expect(res.headers['www-authenticate']).toBe('Bearer realm="sandbox-ide"')
      expect(res.json.message).toContain('npm run ide-link')
    }
    expect(tp.platform.manager.list()).toEqual([])
  })

  it('answers the embed policy without one: it hands out nothing and an embed in another site has no cookie', async () => {
    const res = await anonymous('GET', '/embed')
    expect(res.status).toBe(200)
    expect(Object.keys(res.json).sort()).toEqual(['allowedOrigins', 'trustedOrigins'])
  })

  it('refuses a wrong bearer token, a guessed cookie and a guessed page key', async () => {
    const name = `sandbox_ide_${tp.platform.port}`
    const forged: Record<string, string>[] = [
      { Authorization: 'Bearer not-the-token' },
      { Authorization: `Basic ${Buffer.from(`x:${tp.platform.ideToken.current()}`).toString('base64')}` },
      { Cookie: `${name}=guess` },
      { 'X-Sandbox-IDE-Key': 'guess' },
      { Cookie: `${name}=guess`, 'X-Sandbox-IDE-Key': 'guess' },
      // The token itself is neither half of a browser's sign-in.
      {
        Cookie: `${name}=${tp.platform.ideToken.current()}`,
        'X-Sandbox-IDE-Key': tp.platform.ideToken.current(),
      },
    ]
    for (const headers of forged) {
      const res = await anonymous('GET', '/stack', undefined, headers)
      expect(res.status, JSON.stringify(headers)).toBe(401)
    }
  })

  it('signs a browser in for the token: an HttpOnly, SameSite=Strict cookie of this host and port, and a page key', async () => {
    const { res, cookie, pageKey } = await signIn()
    expect(res.status).toBe(200)
    const setCookie = String(res.headers['set-cookie'])
    expect(setCookie).toMatch(new RegExp(`^sandbox_ide_${tp.platform.port}=[\\w-]{43}; `))
    expect(setCookie).toContain('; Path=/ide/api;')
    expect(setCookie).toContain('; HttpOnly; SameSite=Strict')
    expect(setCookie).not.toMatch(/Domain=/i)
    expect(pageKey).toMatch(/^[\w-]{43}$/)
    expect(res.text).not.toContain(tp.platform.ideToken.current())

    expect(
      (await anonymous('GET', '/stack', undefined, { Cookie: cookie, 'X-Sandbox-IDE-Key': pageKey })).status,
    ).toBe(200)
    // Either half alone: refused (the cookie reaches every port of the host; the page key is readable by script).
    expect((await anonymous('GET', '/stack', undefined, { Cookie: cookie })).status).toBe(401)
    expect((await anonymous('GET', '/stack', undefined, { 'X-Sandbox-IDE-Key': pageKey })).status).toBe(401)
    // A stolen pair sent by a page of another site: refused by the guard all the same.
    const crossSite = await anonymous('GET', '/stack', undefined, {
      Cookie: cookie,
      'X-Sandbox-IDE-Key': pageKey,
      'Sec-Fetch-Site': 'cross-site',
      Origin: 'http://evil.example',
    })
    expect(crossSite.status).toBe(403)
  })

  it('refuses to sign in with a wrong token, and sets no cookie', async () => {
    for (const token of [
      'wrong',
      `${tp.platform.ideToken.current()}x`,
      tp.platform.ideToken.current().slice(1),
    ]) {
      const { res } = await signIn(token)
      expect(res.status).toBe(401)
      expect(res.headers['set-cookie']).toBeUndefined()
    }
    expect((await anonymous('POST', '/auth', { token: 'x', extra: 1 })).status).toBe(400)
    expect((await anonymous('POST', '/auth', '{"token":')).status).toBe(400)
  })

  it('keeps the token in the data folder for its owner only, and a rotation signs everyone out at once', async () => {
    const token = new IdeToken(tp.dataDir)
    expect(statSync(token.path).mode & 0o777).toBe(0o600)
    const old = tp.platform.ideToken.current()
    const { cookie, pageKey } = await signIn()
    // As `npm run ide-link -- --rotate` does, from another process.
    const fresh = token.rotate()
    expect(fresh).not.toBe(old)
    expect(statSync(token.path).mode & 0o777).toBe(0o600)
    expect((await anonymous('GET', '/stack', undefined, { Authorization: `Bearer ${old}` })).status).toBe(401)
    expect(
      (await anonymous('GET', '/stack', undefined, { Cookie: cookie, 'X-Sandbox-IDE-Key': pageKey })).status,
    ).toBe(401)
    expect((await signIn(old)).res.status).toBe(401)
    expect((await anonymous('GET', '/stack', undefined, { Authorization: `Bearer ${fresh}` })).status).toBe(
      200,
    )
  })

  it("guards the embed demo's session the same way on its own host", async () => {
    const demo = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
      rawRequest({
        port: tp.platform.port,
        host: `embed-demo.localhost:${tp.platform.port}`,
        method,
        path,
        headers: { 'Sec-Fetch-Site': 'same-origin', ...headers },
        ...(body === undefined ? {} : { body }),
      })
    const refused = await demo('GET', '/session', {
      Cookie: `sandbox_ide_${tp.platform.port}=x`,
      'X-Sandbox-IDE-Key': 'x',
    })
    expect(refused.status).toBe(401)
    const wrong = await demo('POST', '/auth', { 'Content-Type': 'application/json' }, '{"token":"nope"}')
    expect(wrong.status).toBe(401)
    const crossSite = await demo(
      'POST',
      '/auth',
      { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' },
      JSON.stringify({ token: tp.platform.ideToken.current() }),
    )
    expect(crossSite.status).toBe(403)
    const signedIn = await demo(
      'POST',
      '/auth',
      { 'Content-Type': 'application/json' },
      JSON.stringify({ token: tp.platform.ideToken.current() }),
    )
    expect(signedIn.status).toBe(200)
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? ''
    const session = await demo('GET', '/session', {
      Cookie: cookie,
      'X-Sandbox-IDE-Key': JSON.parse(signedIn.text).pageKey,
    })
    // Past the credential: this platform has no default sandbox to hand out.
    expect(session.status).toBe(404)
  })
})
