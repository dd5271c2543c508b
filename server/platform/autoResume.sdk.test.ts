// E2B's auto-resume on the real stack, through the official SDK: a sandbox created with
// `lifecycle: {onTimeout: 'pause', autoResume: true}` and paused is resumed by a request to one of
// its ports, which is answered; without it the request gets the paused sandbox's 502 as before.
// Concurrent requests resume it once; a request while it pauses waits for the pause, then resumes
// it; a killed sandbox stays gone; only requests that could reach it running may resume it.
import { networkInterfaces } from 'node:os'
import { Sandbox } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { httpTunnelEnd, httpTunnelProtocol } from '../../src/contract/httpTunnel'
import { envdPort } from '../../src/contract/runtimeExtensions'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'
import { rawRequest } from './testing/rawHttp'
import { pointSdkAt } from './testing/sdkEnv'

const domain = 'resume.test'

/** A non-loopback IPv4 address of this machine, to play another machine; none on a machine without one. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a?.family === 'IPv4' && !a.internal)?.address

/**
 * Python's web server in the sandbox on `port` (each test its own, so host networking works
 * too); its pid. The SDK lets go of its output stream: a stream broken by a pause makes the SDK
 * ask the runtime's /health with the sandbox's token, which resumes an auto-resume sandbox (as
 * on E2B, where any call with the token does), and these tests want to see it paused.
 */
async function serve(sandbox: Sandbox, port: number, text: string): Promise<number> {
  await sandbox.files.write(`site-${port}/index.html`, text)
  const server = await sandbox.commands.run(
    `cd ~/site-${port} && exec python3 -m http.server ${port} --bind 127.0.0.1`,
    { background: true, timeoutMs: 0 },
  )
  await sandbox.commands.run(
    `for i in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:${port}/ && exit 0; sleep 0.05; done; exit 1`,
  )
  await server.disconnect()
  return server.pid
}

/** One GET through the IDE's HTTP tunnel to a runtime: the answer's head and body. */
function tunnelGet(
  platformPort: number,
  sandboxId: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${platformPort}${path}`, [httpTunnelProtocol], {
      headers: { Host: `${envdPort}-${sandboxId}.localhost:${platformPort}` },
    })
    let status = 0
    const body: Buffer[] = []
    ws.on('open', () => {
      ws.send(JSON.stringify({ method: 'GET', headers }))
      ws.send(httpTunnelEnd)
    })
    ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary && status === 0) status = JSON.parse(String(data)).status
      else body.push(data)
    })
    ws.on('close', () => resolve({ status, body: Buffer.concat(body).toString() }))
    ws.on('error', reject)
  })
}

describe('auto-resume: a paused sandbox woken by a request to it', () => {
  let tp: TestPlatform
  let restoreEnv = () => {}
  const logLines: string[] = []

  /** A GET of `port` of a sandbox through the router, by host name, from `address` (loopback unless said). */
  const viaRouter = (
    id: string,
    port: number,
    options: { address?: string; headers?: Record<string, string> } = {},
  ) =>
    rawRequest({
      port: tp.platform.port,
      host: `${port}-${id}.${domain}:${tp.platform.port}`,
      path: '/',
      ...options,
    })

  const state = async (id: string) => (await Sandbox.getInfo(id)).state
  const resumesOf = (id: string) => logLines.filter((l) => l === `sandbox ${id}: resumed by a request to it`)

  beforeAll(async () => {
    tp = await startTestPlatform({ host: '0.0.0.0', domain }, { log: (line) => logLines.push(line) })
    restoreEnv = pointSdkAt(tp)
  })
  afterAll(async () => {
    restoreEnv()
    await tp?.close()
  })

  it('resumes a sandbox paused at its timeout for a request to its port, and answers it', async () => {
    const sandbox = await Sandbox.create({
      timeoutMs: 60_000,
      lifecycle: { onTimeout: 'pause', autoResume: true },
    })
    const info = await Sandbox.getInfo(sandbox.sandboxId)
    expect(info.lifecycle).toEqual({ onTimeout: 'pause', autoResume: true })
    const server = await serve(sandbox, 8101, 'served after a nap')

    // Its timeout pauses it (the ticker looks every second).
    await sandbox.setTimeout(1000)
    await expect.poll(() => state(sandbox.sandboxId), { timeout: 10_000 }).toBe('paused')

    const answer = await viaRouter(sandbox.sandboxId, 8101)
    expect(answer).toMatchObject({ status: 200, text: 'served after a nap' })
    const after = await Sandbox.getInfo(sandbox.sandboxId)
    expect(after.state).toBe('running')
    // E2B's auto-resume timeout: the create's, at least 5 minutes.
    expect(after.endAt.getTime() - Date.now()).toBeGreaterThan(280_000)
    // Thawed, not restarted: the same server process answered.
    expect((await sandbox.commands.list()).map((p) => p.pid)).toContain(server)
    expect(resumesOf(sandbox.sandboxId)).toHaveLength(1)
    await sandbox.kill()
  }, 60_000)

  it('still answers 502 for a paused sandbox created without auto-resume, and leaves it paused', async () => {
    const sandbox = await Sandbox.create({ timeoutMs: 60_000, lifecycle: { onTimeout: 'pause' } })
    expect((await Sandbox.getInfo(sandbox.sandboxId)).lifecycle).toEqual({
      onTimeout: 'pause',
      autoResume: false,
    })
    await serve(sandbox, 8102, 'asleep')
    await sandbox.pause()
    const answer = await viaRouter(sandbox.sandboxId, 8102)
    expect(answer.status).toBe(502)
    expect(JSON.parse(answer.text)).toEqual({
      sandboxId: sandbox.sandboxId,
      message: 'The sandbox is paused; resume it to reach it',
      code: 502,
    })
    expect(await state(sandbox.sandboxId)).toBe('paused')
    await sandbox.kill()
  }, 60_000)

  it('resumes once for many requests at once, and each is answered', async () => {
    const sandbox = await Sandbox.create({
      timeoutMs: 60_000,
      lifecycle: { onTimeout: 'pause', autoResume: true },
    })
    await serve(sandbox, 8103, 'one wake')
    await sandbox.pause()
    const answers = await Promise.all(Array.from({ length: 12 }, () => viaRouter(sandbox.sandboxId, 8103)))
    expect(answers.map((a) => `${a.status} ${a.text}`)).toEqual(Array(12).fill('200 one wake'))
    expect(resumesOf(sandbox.sandboxId)).toHaveLength(1)
    expect(await state(sandbox.sandboxId)).toBe('running')
    await sandbox.kill()
  }, 60_000)

  it('answers a request that meets a pause under way (it waits for the pause, then resumes)', async () => {
    const sandbox = await Sandbox.create({
      timeoutMs: 60_000,
      lifecycle: { onTimeout: 'pause', autoResume: true },
    })
    await serve(sandbox, 8104, 'after the pause')
    const pausing = tp.platform.manager.pause(sandbox.sandboxId)
    const answer = await viaRouter(sandbox.sandboxId, 8104)
    await pausing
    expect(answer).toMatchObject({ status: 200, text: 'after the pause' })
    await expect.poll(() => state(sandbox.sandboxId)).toBe('running')
    await sandbox.kill()
  }, 60_000)

  it('resumes for the SDK’s own calls (they carry the token), and refuses envd’s port without it', async () => {
    const sandbox = await Sandbox.create({
      timeoutMs: 60_000,
      lifecycle: { onTimeout: 'pause', autoResume: true },
    })
    await sandbox.pause()
    for (const headers of [{}, { 'X-Access-Token': 'not-the-token' }] as Record<string, string>[]) {
      const refused = await viaRouter(sandbox.sandboxId, envdPort, { headers })
      expect(refused.status).toBe(403)
      expect(JSON.parse(refused.text)).toEqual({
        sandboxId: sandbox.sandboxId,
        message:
          "This sandbox can't be resumed with the credentials provided. Check your access token and try again.",
        code: 403,
      })
    }
    expect(await state(sandbox.sandboxId)).toBe('paused')
    expect((await sandbox.commands.run('echo awake')).stdout).toBe('awake\n')
    expect(await state(sandbox.sandboxId)).toBe('running')
    await sandbox.kill()
  }, 60_000)

  it('resumes for the IDE’s tunnelled calls with the token, and refuses one without it', async () => {
    const { sandboxID, envdAccessToken } = await tp.createSandbox({
      autoPause: true,
      autoResume: { enabled: true },
    })
    await tp.api('POST', `/sandboxes/${sandboxID}/pause`)
    const refused = await tunnelGet(tp.platform.port, sandboxID, '/health', {})
    expect(refused.status).toBe(403)
    expect(JSON.parse(refused.body).code).toBe(403)
    expect(await state(sandboxID)).toBe('paused')
    const answered = await tunnelGet(tp.platform.port, sandboxID, '/health', {
      'X-Access-Token': envdAccessToken,
    })
    expect(answered.status).toBe(204)
    expect(await state(sandboxID)).toBe('running')
    await tp.api('DELETE', `/sandboxes/${sandboxID}`)
  }, 60_000)

  it('never brings back a killed sandbox, even with a request racing the kill', async () => {
    const sandbox = await Sandbox.create({
      timeoutMs: 60_000,
      lifecycle: { onTimeout: 'pause', autoResume: true },
    })
    await serve(sandbox, 8105, 'gone soon')
    await sandbox.pause()
    const [answer] = await Promise.all([viaRouter(sandbox.sandboxId, 8105), sandbox.kill()])
    // Either the request's resume came first (answered, or broken off by the kill) or the kill did.
    expect([200, 502]).toContain(answer.status)
    const later = await viaRouter(sandbox.sandboxId, 8105)
    expect(later.status).toBe(502)
    expect(JSON.parse(later.text)).toEqual({
      sandboxId: sandbox.sandboxId,
      message: 'The sandbox was not found',
      code: 502,
    })
    expect(tp.platform.manager.has(sandbox.sandboxId)).toBe(false)
  }, 60_000)

  it.skipIf(!lanAddress)(
    'lets no request from another machine without the port’s cookie resume it',
    async () => {
      const sandbox = await Sandbox.create({
        timeoutMs: 60_000,
        lifecycle: { onTimeout: 'pause', autoResume: true },
      })
      await serve(sandbox, 8106, 'private')
      await sandbox.pause()
      const answer = await viaRouter(sandbox.sandboxId, 8106, { address: lanAddress as string })
      expect(answer.status).toBe(401)
      expect(await state(sandbox.sandboxId)).toBe('paused')
      await sandbox.kill()
    },
    60_000,
  )

  it('takes E2B’s lifecycle fields with its 400s for what it refuses', async () => {
    const create = (body: Record<string, unknown>) =>
      tp.api('POST', '/v2/sandboxes', { templateID: 'base', ...body })
    const refusals: [Record<string, unknown>, string][] = [
      [{ autoResume: { enabled: 'yes' } }, "invalid request body at 'autoResume.enabled'"],
      [{ autoResume: {} }, "invalid request body at 'autoResume.enabled'"],
      [{ autoResume: true }, "invalid request body at 'autoResume'"],
      [{ autoResume: { enabled: true, policy: 'any' } }, 'invalid request body'],
      [{ autoPauseMemory: false }, 'autoPauseMemory=false only applies when autoPause is true.'],
      [
        { autoPause: true, autoPauseMemory: false, autoResume: { enabled: true } },
        'autoPauseMemory=false (filesystem-only auto-pause) cannot be combined with autoResume: a filesystem-only snapshot cannot be auto-resumed by traffic and must be resumed explicitly.',
      ],
    ]
    for (const [body, message] of refusals) {
      const res = await create(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      const error = await res.json()
      expect(error.code).toBe(400)
      expect(error.message).toContain(message)
    }
    // The API (not the SDKs) takes auto-resume without auto-pause: killed at its timeout,
    // resumed by traffic after an explicit pause.
    const res = await create({ autoResume: { enabled: true } })
    expect(res.status).toBe(201)
    const { sandboxID } = await res.json()
    const detail = await (await tp.api('GET', `/sandboxes/${sandboxID}`)).json()
    expect(detail.lifecycle).toEqual({ autoResume: true, onTimeout: 'kill' })
    // The list's rows carry no lifecycle, as E2B's.
    const rows = await (await tp.api('GET', '/v2/sandboxes')).json()
    expect(rows.find((r: { sandboxID: string }) => r.sandboxID === sandboxID)).not.toHaveProperty('lifecycle')
    await tp.api('DELETE', `/sandboxes/${sandboxID}`)
  })
})

describe('auto-resume after a restart of the stack', () => {
  let second: TestPlatform | undefined
  afterAll(() => second?.close())

  it('keeps the lifecycle, but a request does not start afresh a sandbox whose processes are gone', async () => {
    const first = await startTestPlatform()
    const { sandboxID: id, envdAccessToken } = await first.createSandbox({
      timeout: 600,
      autoPause: true,
      autoResume: { enabled: true },
    })
    await first.close({ keepData: true })

    second = await startTestPlatform({ dataDir: first.dataDir })
    const detail = await (await second.api('GET', `/sandboxes/${id}`)).json()
    expect(detail).toMatchObject({
      state: 'paused',
      processesLost: true,
      lifecycle: { autoResume: true, onTimeout: 'pause' },
    })
    const answer = await rawRequest({
      port: second.platform.port,
      host: `${envdPort}-${id}.localhost`,
      path: '/health',
      headers: { 'X-Access-Token': envdAccessToken },
    })
    expect(answer.status).toBe(502)
    expect(JSON.parse(answer.text).message).toMatch(/processes are gone.*resume it \(connect\)/)
    expect((await (await second.api('GET', `/sandboxes/${id}`)).json()).state).toBe('paused')
    // An explicit resume starts it, and traffic resumes it again after the next pause.
    expect((await second.api('POST', `/v2/sandboxes/${id}/connect`, { timeout: 60 })).status).toBe(201)
    expect((await second.api('POST', `/sandboxes/${id}/pause`)).status).toBe(204)
    const again = await rawRequest({
      port: second.platform.port,
      host: `${envdPort}-${id}.localhost`,
      path: '/health',
      headers: { 'X-Access-Token': envdAccessToken },
    })
    expect(again.status).toBe(204)
  }, 60_000)
})
