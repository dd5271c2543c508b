// A class over the network: the stack on a --domain, students' join links (used once, revocable,
// expiring), a student's sign-in that opens their own sandbox and nothing else, and the refusals
// around it (forged, truncated and reused tokens, other sites, unknown hosts, guessing).
import { networkInterfaces } from 'node:os'
import { Sandbox } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserCallOptions, browserCall as callAsBrowser } from '../testing/browserCall'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { rawRequest } from '../testing/rawHttp'
import { pointSdkAt } from '../testing/sdkEnv'

const domain = 'class.test'

/** A non-loopback IPv4 address of this machine, to play a student's laptop; none on a machine without one. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a?.family === 'IPv4' && !a.internal)?.address

describe('a class over the network: join links and what a student may reach', () => {
  let tp: TestPlatform
  let ada: string
  let ben: string
  const host = () => `${domain}:${tp.platform.port}`

  /** A browser's call on the class's domain, as a page sends it (no bearer token). */
  const browserCall = (method: string, path: string, options: BrowserCallOptions = {}) =>
    callAsBrowser({ port: tp.platform.port, host: host() }, method, path, options)

  /** The teacher (the IDE's token) makes a link. */
  const issue = async (sandboxId: string, body: Record<string, unknown> = {}) => {
    const res = await ideCall(tp.platform, 'POST', `/sandboxes/${sandboxId}/join-links`, body)
    expect(res.status).toBe(201)
    return res.json as { id: string; token: string; sandboxId: string; student: string; expiresAt: string }
  }

  /** A student's browser opens a link: its cookie and page key, as the page then sends them. */
  const join = async (token: string) => {
    const res = await browserCall('POST', '/join', { body: { token } })
    expect(res.status, res.text).toBe(200)
    const cookie = String(res.headers['set-cookie']).split(';')[0] as string
    return { res, headers: { Cookie: cookie, 'X-Sandbox-IDE-Key': res.json.pageKey as string } }
  }

  beforeAll(async () => {
    tp = await startTestPlatform({ host: '0.0.0.0', domain })
    ada = (await tp.createSandbox({ metadata: { class: 'monday', student: 'ada' } })).sandboxID
    ben = (await tp.createSandbox({ metadata: { class: 'monday', student: 'ben' } })).sandboxID
  })
  afterAll(() => tp.close())

  it('trades a join link once for a session that opens its own sandbox only', async () => {
    const link = await issue(ada)
    expect(link).toMatchObject({ sandboxId: ada, student: 'ada' })
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const { res, headers } = await join(link.token)
    expect(res.json).toEqual({ pageKey: expect.any(String), sandboxId: ada })
    expect(String(res.headers['set-cookie'])).toMatch(
      new RegExp(
        `^sandbox_student_${tp.platform.port}=[^;]+; Path=/ide/api; Max-Age=\\d+; HttpOnly; SameSite=Strict$`,
      ),
    )

    expect((await browserCall('GET', '/auth', { headers })).json).toEqual({
      signedIn: true,
      role: 'student',
      sandboxId: ada,
      student: 'ada',
    })
    const session = await browserCall('GET', `/sandboxes/${ada}/session`, { headers })
    expect(session.status).toBe(200)
    // Reached under the class's domain, as the page was opened on it.
    expect(session.json.runtimeUrl).toBe(`http://49983-${ada}.${domain}:${tp.platform.port}`)
    const health = await rawRequest({
      port: tp.platform.port,
      host: `49983-${ada}.${domain}:${tp.platform.port}`,
      path: '/health',
    })
    expect(health.status).toBe(204)
    expect((await browserCall('GET', '/stack', { headers })).json.defaultSandboxId).toBeNull()
    expect((await browserCall('GET', `/sandboxes/${ada}/usage`, { headers })).status).toBe(200)

    // Nothing of anyone else's, and nothing that changes the stack.
    const refused = [
      ['GET', '/sandboxes'],
      ['POST', '/sandboxes'],
      ['GET', `/sandboxes/${ben}/session`],
      ['POST', `/sandboxes/${ben}/resume`],
      ['DELETE', `/sandboxes/${ada}`],
      ['GET', '/templates'],
      ['GET', '/remotes'],
      ['GET', '/join-links'],
      ['POST', `/sandboxes/${ada}/join-links`],
    ]
    for (const [method, path] of refused) {
      const answer = await browserCall(method as string, path as string, { headers })
      expect(answer.status, `${method} ${path}`).toBe(403)
      expect(answer.json.message).toBe("a student's join link opens their own sandbox only")
      expect(answer.text).not.toContain(ben)
    }
    expect(tp.platform.manager.list()).toHaveLength(2)
    // The platform API wants its own key, whatever the browser holds.
    const platformApi = await rawRequest({
      port: tp.platform.port,
      host: host(),
      path: '/sandboxes',
      headers,
    })
    expect(platformApi.status).toBe(401)

    // The same link again, from anywhere: refused, and the first browser keeps its session.
    const again = await browserCall('POST', '/join', { body: { token: link.token } })
    expect(again.status).toBe(401)
    expect(again.json.message).toContain('already used')
    expect((await browserCall('GET', '/auth', { headers })).status).toBe(200)
  })

  it('refuses forged, truncated, expired and revoked links, and half a session', async () => {
    const link = await issue(ben)
    // A forged last character must differ from the real one (a 43-character token ends in 'A' one time in 16).
    const forgedLast = link.token.endsWith('A') ? 'E' : 'A'
    for (const token of [
      link.token.slice(0, -1),
      `${link.token.slice(0, -1)}${forgedLast}`,
      'x'.repeat(43),
      '',
    ]) {
      const res = await browserCall('POST', '/join', { body: { token } })
      expect([400, 401], token).toContain(res.status)
    }
    const { headers } = await join(link.token)
    // Either half alone, or a forged page key, is nobody.
    const halves: Record<string, string>[] = [
      { Cookie: headers.Cookie },
      { 'X-Sandbox-IDE-Key': headers['X-Sandbox-IDE-Key'] },
      { ...headers, 'X-Sandbox-IDE-Key': 'forged' },
      { ...headers, Cookie: headers.Cookie.replace(/\.[^.]*$/, '.forged') },
    ]
    for (const half of halves) {
      const res = await browserCall('GET', `/sandboxes/${ben}/session`, { headers: half })
      expect(res.status).toBe(401)
      expect(res.text).not.toContain('accessToken')
    }
    // Revoked: the session ends at once.
    expect((await ideCall(tp.platform, 'DELETE', `/join-links/${link.id}`)).status).toBe(204)
    const revoked = await browserCall('GET', `/sandboxes/${ben}/session`, { headers })
    expect(revoked.status).toBe(401)
    expect(revoked.json.message).toContain('ask your teacher for a new link')
    expect((await ideCall(tp.platform, 'DELETE', `/join-links/${link.id}`)).status).toBe(404)

    const expiring = await issue(ben, { expiresInSeconds: 1 })
    await new Promise((r) => setTimeout(r, 1100))
    const expired = await browserCall('POST', '/join', { body: { token: expiring.token } })
    expect(expired.status).toBe(401)
    expect(expired.json.message).toContain('expired')
  })

  it('lists a class’s links for the teacher, and drops those of a killed sandbox', async () => {
    const temporary = (await tp.createSandbox({ metadata: { class: 'tuesday', student: 'cy' } })).sandboxID
    const link = await issue(temporary)
    expect(link).toMatchObject({ student: 'cy' })
    const listed = await ideCall(tp.platform, 'GET', '/join-links?class=tuesday')
    expect(listed.json).toEqual([
      expect.objectContaining({ id: link.id, sandboxId: temporary, className: 'tuesday' }),
    ])
    await tp.api('DELETE', `/sandboxes/${temporary}`)
    expect((await ideCall(tp.platform, 'GET', '/join-links?class=tuesday')).json).toEqual([])
    const dead = await browserCall('POST', '/join', { body: { token: link.token } })
    expect(dead.status).toBe(401)
  })

  it('answers only on its own names and same-origin requests', async () => {
    const link = await issue(ada)
    const otherHost = await rawRequest({
      port: tp.platform.port,
      host: `evil.example:${tp.platform.port}`,
      method: 'POST',
      path: '/ide/api/join',
      headers: { 'X-Sandbox-IDE': '1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: link.token }),
    })
    expect(otherHost.status).toBe(403)
    const crossSite = await browserCall('POST', '/join', {
      body: { token: link.token },
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    })
    expect(crossSite.status).toBe(403)
    // Neither used the link up.
    expect((await browserCall('POST', '/join', { body: { token: link.token } })).status).toBe(200)
  })

  it.skipIf(!lanAddress)(
    'opens a sandbox’s ports on other machines to its student and teacher only, never showing the app the cookie',
    async () => {
      const address = lanAddress as string
      const link = await issue(ada)
      const joined = await browserCall('POST', '/join', { body: { token: link.token }, address })
      expect(joined.status).toBe(200)
      const headers = {
        Cookie: String(joined.headers['set-cookie']).split(';')[0] as string,
        'X-Sandbox-IDE-Key': joined.json.pageKey as string,
      }
      const session = await browserCall('GET', `/sandboxes/${ada}/session`, { headers, address })
      const portCookie = ([session.headers['set-cookie'] ?? []].flat() as string[]).find((c) =>
        c.startsWith(`sandbox_port_${ada}=`),
      )
      expect(portCookie).toMatch(
        new RegExp(
          `^sandbox_port_${ada}=[^;]+; Domain=${domain}; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax$`,
        ),
      )
      const portValue = (portCookie as string).split(';')[0] as string

      // An app in ada's sandbox that answers with the cookies it was sent.
      const restoreEnv = pointSdkAt(tp)
      try {
        const sandbox = await Sandbox.connect(ada)
        await sandbox.files.write(
          'cookies.mjs',
          "(await import('node:http')).createServer((q, r) => r.end(JSON.stringify(q.headers.cookie ?? null))).listen(8000)",
        )
        await sandbox.commands.run('node ~/cookies.mjs', { background: true, timeoutMs: 0 })
        await sandbox.commands.run(
          'for i in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:8000/ && exit 0; sleep 0.05; done; exit 1',
        )
      } finally {
        restoreEnv()
      }
      const port = (from: string | undefined, cookie?: string, sandboxId = ada) =>
        rawRequest({
          port: tp.platform.port,
          ...(from ? { address: from } : {}),
          host: `8000-${sandboxId}.${domain}:${tp.platform.port}`,
          path: '/',
          headers: cookie ? { Cookie: cookie } : {},
        })
      const without = await port(address)
      expect(without.status).toBe(401)
      expect(without.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(without.text).toContain('open the sandbox in the IDE first')
      const withIt = await port(address, `theme=dark; ${portValue}; ${headers.Cookie}`)
      expect(withIt.status).toBe(200)
      // The app sees its own cookie and none of the stack's port cookies.
      expect(JSON.parse(withIt.text)).toBe(`theme=dark; ${headers.Cookie}`)
      // Signed for ada's sandbox: worth nothing on ben's.
      const moved = portValue.replace(`sandbox_port_${ada}=`, `sandbox_port_${ben}=`)
      expect((await port(address, moved, ben)).status).toBe(401)
      expect((await port(address, `${portValue.slice(0, -2)}xx`)).status).toBe(401)
      // The owner's own machine needs none.
      expect((await port(undefined)).status).toBe(200)
      // Revoked: the ports close to her at once.
      await ideCall(tp.platform, 'DELETE', `/join-links/${link.id}`)
      expect((await port(address, portValue)).status).toBe(401)
    },
  )

  it.skipIf(!lanAddress)(
    'reaches the runtime through the IDE’s own origin from a page opened by a bare address',
    async () => {
      const address = lanAddress as string
      const hostHeader = `${address}:${tp.platform.port}`
      const link = await issue(ben)
      const joined = await browserCall('POST', '/join', { body: { token: link.token }, address, hostHeader })
      expect(joined.status).toBe(200)
      const headers = {
        Cookie: String(joined.headers['set-cookie']).split(';')[0] as string,
        'X-Sandbox-IDE-Key': joined.json.pageKey as string,
      }
      const session = await browserCall('GET', `/sandboxes/${ben}/session`, { headers, address, hostHeader })
      expect(session.json.runtimeUrl).toBe(`http://${hostHeader}/.sandbox/${ben}`)
      // No names, so no port cookie.
      expect(String(session.headers['set-cookie'] ?? '')).not.toContain('sandbox_port_')
      const viaOrigin = (path: string, extra: Record<string, string> = {}, body?: string) =>
        rawRequest({
          port: tp.platform.port,
          address,
          host: hostHeader,
          method: body === undefined ? 'GET' : 'POST',
          path: `/.sandbox/${ben}${path}`,
          headers: extra,
          ...(body === undefined ? {} : { body }),
        })
      expect((await viaOrigin('/health')).status).toBe(204)
      const listed = await viaOrigin(
        '/process.Process/List',
        { 'Content-Type': 'application/json', 'X-Access-Token': session.json.accessToken },
        '{}',
      )
      expect(listed.status, listed.text).toBe(200)
      // The runtime still wants the sandbox's own token.
      expect(
        (await viaOrigin('/process.Process/List', { 'Content-Type': 'application/json' }, '{}')).status,
      ).toBe(401)
    },
  )

  it.skipIf(!lanAddress)(
    'slows down guessing from another machine, and never the loopback owner',
    async () => {
      const guess = () =>
        browserCall('POST', '/join', { body: { token: 'g'.repeat(43) }, address: lanAddress as string })
      const statuses: number[] = []
      for (let i = 0; i < 22; i++) statuses.push((await guess()).status)
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true)
      const limited = await guess()
      expect(limited.status).toBe(429)
      expect(limited.json.message).toMatch(/too many failed sign-ins from this address: try again in \d+ s/)
      // Even a good link waits: the limit is on the address.
      const link = await issue(ben)
      expect(
        (await browserCall('POST', '/join', { body: { token: link.token }, address: lanAddress as string }))
          .status,
      ).toBe(429)
      // The owner on loopback is never counted.
      expect((await browserCall('POST', '/join', { body: { token: link.token } })).status).toBe(200)
    },
  )
})
