// Share links on the real stack: the owner's links for guests (edit or view-only, expiring,
// revocable), traded once per browser for a session whose page holds a runtime token of its own;
// the router forwards a guest's calls with the sandbox's token, refuses a view-only guest's
// changes with permission_denied, and ends a guest's open streams at once when the share ends.
import { request } from 'node:http'
import { Sandbox } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { httpTunnelEnd, httpTunnelProtocol } from '../../../src/contract/httpTunnel'
import { envelope, splitEnvelopes } from '../../runtime/testing/wire'
import { browserCall as callAsBrowser } from '../testing/browserCall'
import { ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { rawRequest } from '../testing/rawHttp'
import { pointSdkAt } from '../testing/sdkEnv'

describe('share links: guests with edit or view-only rights', () => {
  let tp: TestPlatform
  let sandboxId: string
  let ownerToken: string
  const host = () => `localhost:${tp.platform.port}`
  const runtimeHost = () => `49983-${sandboxId}.localhost:${tp.platform.port}`
  const browserCall = (method: string, path: string, options: Parameters<typeof callAsBrowser>[3] = {}) =>
    callAsBrowser({ port: tp.platform.port, host: host() }, method, path, options)

  const share = async (body: Record<string, unknown>) => {
    const res = await ideCall(tp.platform, 'POST', `/sandboxes/${sandboxId}/share-links`, body)
    expect(res.status, res.text).toBe(201)
    return res.json as { id: string; token: string; name: string; rights: string; expiresAt: string }
  }

  /** A guest's browser opens the link, then its page asks for the session: its headers and runtime token. */
  const join = async (token: string) => {
    const joined = await browserCall('POST', '/join', { body: { token } })
    expect(joined.status, joined.text).toBe(200)
    const headers = {
      Cookie: String(joined.headers['set-cookie']).split(';')[0] as string,
      'X-Sandbox-IDE-Key': joined.json.pageKey as string,
    }
    const session = await browserCall('GET', `/sandboxes/${sandboxId}/session`, { headers })
    expect(session.status, session.text).toBe(200)
    return { headers, runtimeToken: session.json.accessToken as string }
  }

  /** A call to the sandbox's runtime through the router, as a page makes it. */
  const runtime = (
    method: string,
    path: string,
    token: string,
    body?: string | Uint8Array,
    contentType = 'application/json',
  ) =>
    rawRequest({
      port: tp.platform.port,
      host: runtimeHost(),
      method,
      path,
      headers: { 'X-Access-Token': token, 'Content-Type': contentType },
      ...(body === undefined ? {} : { body }),
    })
  const rpc = (path: string, token: string, message: unknown) =>
    runtime('POST', path, token, JSON.stringify(message))
  /** A server-streaming RPC's whole answer (for calls that end at once). */
  const streamRpc = (path: string, token: string, message: unknown) =>
    runtime('POST', path, token, envelope(JSON.stringify(message)), 'application/connect+json')

  /** The end-of-stream error of a Connect stream's answer, if any. */
  const streamError = (text: string) => {
    // Our refusals are short: the envelope's length bytes are ASCII, so the text holds them whole.
    const last = splitEnvelopes(Buffer.from(text)).at(-1)
    return last && last.flags === 2 ? last.json.error : undefined
  }

  /** Starts a long-lived process as the owner (through the SDK); its pid. */
  const startSleeper = async () => {
    const restoreEnv = pointSdkAt(tp)
    try {
      const sandbox = await Sandbox.connect(sandboxId)
      const handle = await sandbox.commands.run('sleep 600', { background: true, timeoutMs: 0 })
      return handle.pid
    } finally {
      restoreEnv()
    }
  }

  /** Opens a Connect stream to a process as the guest; resolves how the answer ended. */
  const openStream = (token: string, pid: number) =>
    new Promise<{ opened: Promise<number>; ended: Promise<'complete' | 'cut'> }>((resolveOuter) => {
      let opened!: (status: number) => void
      let ended!: (how: 'complete' | 'cut') => void
      const result = {
        opened: new Promise<number>((r) => {
          opened = r
        }),
        ended: new Promise<'complete' | 'cut'>((r) => {
          ended = r
        }),
      }
      const req = request(
        {
          host: '127.0.0.1',
          port: tp.platform.port,
          method: 'POST',
          path: '/process.Process/Connect',
          headers: {
            host: runtimeHost(),
            'X-Access-Token': token,
            'Content-Type': 'application/connect+json',
          },
        },
        (res) => {
          opened(res.statusCode ?? 0)
          res.on('data', () => {})
          res.on('close', () => ended(res.complete ? 'complete' : 'cut'))
          res.on('error', () => ended('cut'))
        },
      )
      req.on('error', () => ended('cut'))
      req.end(envelope(JSON.stringify({ process: { pid } })))
      resolveOuter(result)
    })

  beforeAll(async () => {
    tp = await startTestPlatform()
    const created = await tp.createSandbox()
    sandboxId = created.sandboxID
    ownerToken = created.envdAccessToken
    const wrote = await rawRequest({
      port: tp.platform.port,
      host: runtimeHost(),
      method: 'POST',
      path: '/files?path=notes.txt',
      headers: { 'X-Access-Token': ownerToken, 'Content-Type': 'application/octet-stream' },
      body: 'the owner wrote this\n',
    })
    expect(wrote.status, wrote.text).toBe(200)
  })
  afterAll(() => tp.close())

  it('makes, lists and revokes links, each opening one browser as a guest of one sandbox', async () => {
    const link = await share({ rights: 'view', minutes: 30, name: 'Grace' })
    expect(link).toMatchObject({ name: 'Grace', rights: 'view' })
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000)
    const unnamed = await share({ rights: 'edit', minutes: 5 })
    expect(unnamed.name).toBe('Guest')

    const listed = await ideCall(tp.platform, 'GET', `/sandboxes/${sandboxId}/share-links`)
    expect(listed.json.map((l: { id: string }) => l.id)).toEqual([link.id, unnamed.id])
    // Students' lists (the class's links) hold no share links.
    expect((await ideCall(tp.platform, 'GET', '/join-links')).json).toEqual([])

    const { headers, runtimeToken } = await join(link.token)
    expect((await browserCall('GET', '/auth', { headers })).json).toEqual({
      signedIn: true,
      role: 'guest',
      sandboxId,
      name: 'Grace',
      rights: 'view',
      expiresAt: link.expiresAt,
    })
    // The page never holds the sandbox's own token.
    expect(runtimeToken).not.toBe(ownerToken)
    expect(runtimeToken.startsWith('guest.')).toBe(true)
    const opened = await ideCall(tp.platform, 'GET', `/sandboxes/${sandboxId}/share-links`)
    expect(opened.json[0].claimedAt).toEqual(expect.any(String))

    // One use per browser.
    const again = await browserCall('POST', '/join', { body: { token: link.token } })
    expect(again.status).toBe(401)
    expect(again.json.message).toContain('already used')

    // A guest may not make or see links, nor reach anything else of the owner's.
    for (const [method, path] of [
      ['GET', `/sandboxes/${sandboxId}/share-links`],
      ['POST', `/sandboxes/${sandboxId}/share-links`],
      ['DELETE', `/share-links/${link.id}`],
      ['GET', '/sandboxes'],
      ['POST', `/sandboxes/${sandboxId}/pause`],
      ['POST', `/sandboxes/${sandboxId}/timeout`],
    ]) {
      const body = method === 'POST' ? { rights: 'edit', minutes: 5, seconds: 60 } : undefined
      const res = await browserCall(method as string, path as string, { headers, ...(body ? { body } : {}) })
      expect(res.status, `${method} ${path}`).toBe(403)
    }

    expect((await ideCall(tp.platform, 'DELETE', `/share-links/${link.id}`)).status).toBe(204)
    expect((await ideCall(tp.platform, 'DELETE', `/share-links/${link.id}`)).status).toBe(404)
    expect((await browserCall('GET', '/auth', { headers })).status).toBe(401)
    expect((await rpc('/process.Process/List', runtimeToken, {})).status).toBe(401)
    const rest = await ideCall(tp.platform, 'GET', `/sandboxes/${sandboxId}/share-links`)
    expect(rest.json.map((l: { id: string }) => l.id)).toEqual([unnamed.id])
  })

  it('refuses bad requests for links', async () => {
    for (const body of [
      { rights: 'admin', minutes: 5 },
      { rights: 'view', minutes: 0 },
      { rights: 'view', minutes: 0.001 },
      { rights: 'view', minutes: 8 * 24 * 60 },
      { rights: 'view', minutes: 5, name: '<script>' },
      { rights: 'view' },
    ]) {
      const res = await ideCall(tp.platform, 'POST', `/sandboxes/${sandboxId}/share-links`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
    }
    const missing = await ideCall(tp.platform, 'POST', '/sandboxes/nosuchsandbox123/share-links', {
      rights: 'view',
      minutes: 5,
    })
    expect(missing.status).toBe(404)
  })

  it('lets a view-only guest read and watch, and refuses every change with permission_denied', async () => {
    const { runtimeToken } = await join((await share({ rights: 'view', minutes: 30 })).token)

    // Reads pass.
    const read = await runtime('GET', '/files?path=notes.txt', runtimeToken)
    expect(read.status).toBe(200)
    expect(read.text).toBe('the owner wrote this\n')
    expect((await rpc('/filesystem.Filesystem/Stat', runtimeToken, { path: 'notes.txt' })).status).toBe(200)
    const listed = await rpc('/filesystem.Filesystem/ListDir', runtimeToken, { path: '.' })
    expect(listed.status, listed.text).toBe(200)
    expect(listed.text).toContain('notes.txt')
    expect((await rpc('/process.Process/List', runtimeToken, {})).status).toBe(200)

    // Changes are refused, in the shape each caller reads.
    const deniedRpc = async (path: string, message: unknown) => {
      const res = await rpc(path, runtimeToken, message)
      expect(res.status, path).toBe(403)
      expect(JSON.parse(res.text)).toEqual({
        code: 'permission_denied',
        message: 'this share link is view-only: it cannot change the sandbox',
      })
    }
    await deniedRpc('/filesystem.Filesystem/MakeDir', { path: 'made' })
    await deniedRpc('/filesystem.Filesystem/Move', { source: 'notes.txt', destination: 'moved.txt' })
    await deniedRpc('/filesystem.Filesystem/Remove', { path: 'notes.txt' })
    await deniedRpc('/process.Process/SendInput', { process: { pid: 1 }, input: { stdin: 'aGk=' } })
    await deniedRpc('/process.Process/SendSignal', { process: { pid: 1 }, signal: 'SIGNAL_SIGKILL' })
    await deniedRpc('/process.Process/Update', { process: { pid: 1 }, pty: { size: { cols: 10, rows: 5 } } })
    await deniedRpc('/process.Process/CloseStdin', { process: { pid: 1 } })

    const upload = await runtime(
      'POST',
      '/files?path=notes.txt',
      runtimeToken,
      'overwritten',
      'application/octet-stream',
    )
    expect(upload.status).toBe(403)
    expect(JSON.parse(upload.text)).toEqual({
      code: 403,
      message: 'this share link is view-only: it cannot change the sandbox',
    })
    // A streaming Start: Connect's end of stream with the error, as connect-go answers.
    const start = await streamRpc('/process.Process/Start', runtimeToken, {
      process: { cmd: 'touch', args: ['started.txt'] },
    })
    expect(start.status).toBe(200)
    expect(streamError(start.text)).toEqual({
      code: 'permission_denied',
      message: 'this share link is view-only: it cannot change the sandbox',
    })
    const streamed = await streamRpc('/process.Process/StreamInput', runtimeToken, {
      start: { process: { pid: 1 } },
    })
    expect(streamError(streamed.text)?.code).toBe('permission_denied')

    // Nothing changed.
    expect((await runtime('GET', '/files?path=notes.txt', ownerToken)).text).toBe('the owner wrote this\n')
    expect((await rpc('/filesystem.Filesystem/Stat', ownerToken, { path: 'made' })).status).toBe(404)
    expect((await rpc('/filesystem.Filesystem/Stat', ownerToken, { path: 'started.txt' })).status).toBe(404)
  })

  it('refuses a view-only guest’s changes over the HTTP tunnel too', async () => {
    const { runtimeToken } = await join((await share({ rights: 'view', minutes: 30 })).token)
    const tunnelled = (path: string, contentType: string, body: Buffer) =>
      new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${tp.platform.port}${path}`, [httpTunnelProtocol], {
          headers: { Host: runtimeHost() },
        })
        let status = 0
        const pieces: Buffer[] = []
        ws.on('open', () => {
          ws.send(
            JSON.stringify({
              method: 'POST',
              headers: { 'Content-Type': contentType, 'X-Access-Token': runtimeToken },
            }),
          )
          ws.send(body)
          ws.send(httpTunnelEnd)
        })
        ws.on('message', (data: Buffer, isBinary) => {
          if (!isBinary && status === 0) status = JSON.parse(String(data)).status
          else pieces.push(data)
        })
        ws.on('close', () => resolve({ status, body: Buffer.concat(pieces) }))
        ws.on('error', reject)
      })
    const write = await tunnelled(
      '/filesystem.Filesystem/Remove',
      'application/json',
      Buffer.from(JSON.stringify({ path: 'notes.txt' })),
    )
    expect(write.status).toBe(403)
    expect(JSON.parse(String(write.body)).code).toBe('permission_denied')
    const list = await tunnelled('/process.Process/List', 'application/json', Buffer.from('{}'))
    expect(list.status).toBe(200)
  })

  it('lets an edit guest change the sandbox, with its own token only', async () => {
    const { runtimeToken } = await join((await share({ rights: 'edit', minutes: 30 })).token)
    const upload = await runtime(
      'POST',
      '/files?path=guest.txt',
      runtimeToken,
      'from the guest',
      'application/octet-stream',
    )
    expect(upload.status, upload.text).toBe(200)
    expect((await runtime('GET', '/files?path=guest.txt', ownerToken)).text).toBe('from the guest')
    expect((await rpc('/filesystem.Filesystem/MakeDir', runtimeToken, { path: 'guest-dir' })).status).toBe(
      200,
    )
  })

  it('refuses forged and garbage runtime tokens and cookies', async () => {
    const { headers, runtimeToken } = await join((await share({ rights: 'edit', minutes: 30 })).token)
    const forged = [
      `${runtimeToken.slice(0, -2)}xx`,
      runtimeToken.replace(/^guest\.[^.]+/, 'guest.someoneelse'),
      'guest.',
      'guest..',
      'garbage',
    ]
    for (const token of forged) {
      expect((await rpc('/process.Process/List', token, {})).status, token).toBe(401)
    }
    for (const bad of [
      { ...headers, Cookie: headers.Cookie.replace(/\.[^.]*$/, '.forged') },
      { ...headers, Cookie: `${headers.Cookie.split('=')[0]}=garbage` },
      { ...headers, 'X-Sandbox-IDE-Key': 'forged' },
    ]) {
      expect((await browserCall('GET', `/sandboxes/${sandboxId}/session`, { headers: bad })).status).toBe(401)
    }
    // A guest token names its sandbox: worth nothing on another.
    const other = await tp.createSandbox()
    const elsewhere = await rawRequest({
      port: tp.platform.port,
      host: `49983-${other.sandboxID}.localhost:${tp.platform.port}`,
      method: 'POST',
      path: '/process.Process/List',
      headers: { 'X-Access-Token': runtimeToken, 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(elsewhere.status).toBe(401)
  })

  it('cuts a guest’s open stream at once when the link is revoked', async () => {
    const link = await share({ rights: 'view', minutes: 30 })
    const { runtimeToken } = await join(link.token)
    const pid = await startSleeper()
    const stream = await openStream(runtimeToken, pid)
    expect(await stream.opened).toBe(200)
    const revokedAt = Date.now()
    expect((await ideCall(tp.platform, 'DELETE', `/share-links/${link.id}`)).status).toBe(204)
    expect(await stream.ended).toBe('cut')
    expect(Date.now() - revokedAt).toBeLessThan(1000)
    // The owner's process goes on.
    const listed = JSON.parse((await rpc('/process.Process/List', ownerToken, {})).text)
    expect(listed.processes.some((p: { pid: number }) => p.pid === pid)).toBe(true)
  })

  it('ends a share when it expires: no new browser, no session, and its open stream is cut', async () => {
    // Minutes may be fractional: this one lasts three seconds.
    const link = await share({ rights: 'view', minutes: 0.05 })
    const unused = await share({ rights: 'view', minutes: 0.05 })
    const { headers, runtimeToken } = await join(link.token)
    const pid = await startSleeper()
    const stream = await openStream(runtimeToken, pid)
    expect(await stream.opened).toBe(200)
    expect(await Promise.race([stream.ended, new Promise((r) => setTimeout(() => r('open'), 300))])).toBe(
      'open',
    )
    expect(await stream.ended).toBe('cut')
    // Cut when the share ran out, not before, and within a moment of it.
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(link.expiresAt))
    expect(Date.now() - Date.parse(link.expiresAt)).toBeLessThan(1000)
    expect((await browserCall('GET', '/auth', { headers })).status).toBe(401)
    expect((await rpc('/process.Process/List', runtimeToken, {})).status).toBe(401)
    // The second share was made a moment after the first, so it runs out a moment later.
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(unused.expiresAt) - Date.now() + 50)))
    const late = await browserCall('POST', '/join', { body: { token: unused.token } })
    expect(late.status).toBe(401)
    expect(late.json.message).toContain('expired')
  }, 20_000)
})
