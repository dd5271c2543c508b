// E2B remotes for real, without internet: a second platform plays the E2B cloud. The first keeps
// the cloud's API key on the server side and forwards the IDE's platform calls to it; the
// browser gets only a session (runtime URL and access token) that works against the cloud.
import { statSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envdVersion } from '../../runtime/version'
import { type IdeAnswer, ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { rawRequest } from '../testing/rawHttp'
import { RemoteStore } from './remoteStore'

const cloudKey = 'e2b_cloud_secret_key_0123456789'

describe('IDE API: E2B remotes', () => {
  let cloud: TestPlatform
  let local: TestPlatform
  const logLines: string[] = []
  const answers: IdeAnswer[] = []
  let remoteId: string
  let sandboxId: string
  let token: string

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await ideCall(local.platform, method, path, body)
    answers.push(res)
    return res
  }
  const sandboxPath = (action: string, id = sandboxId) => `/remotes/${remoteId}/sandboxes/${id}/${action}`
  /** POST /process.Process/List at a session's runtime URL, on the cloud's router. */
  const listProcesses = (session: { runtimeUrl: string; accessToken: string }) =>
    rawRequest({
      port: cloud.platform.port,
      host: new URL(session.runtimeUrl).host,
      method: 'POST',
      path: '/process.Process/List',
      headers: { 'Content-Type': 'application/json', 'X-Access-Token': session.accessToken },
      body: '{}',
    })

  beforeAll(async () => {
    cloud = await startTestPlatform({ apiKey: cloudKey })
    local = await startTestPlatform({}, { log: (line) => logLines.push(line) })
    const created = await (await cloud.api('POST', '/v2/sandboxes', { timeout: 300 })).json()
    sandboxId = created.sandboxID
    token = created.envdAccessToken
  })
  afterAll(async () => {
    await local?.close()
    await cloud?.close()
  })

  it('refuses a wrong key with 400 and the remote’s message, and stores nothing', async () => {
    const res = await call('POST', '/remotes', { apiKey: 'wrong-key', apiUrl: cloud.url })
    expect(res.status).toBe(400)
    expect(res.json).toEqual({
      code: 400,
      message:
        'the E2B API refused this API key: Invalid API key: send the platform key in the X-API-Key header',
    })
    expect((await call('GET', '/remotes')).json).toEqual([])
  })

  it('answers 502 when the remote API cannot be reached', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const { port } = probe.address() as AddressInfo
    await new Promise((resolve) => probe.close(resolve))
    const res = await call('POST', '/remotes', { apiKey: cloudKey, apiUrl: `http://127.0.0.1:${port}` })
    expect(res.status).toBe(502)
    expect(res.json).toEqual({
      code: 502,
      message: `E2B API unreachable at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    })
  })

  it('follows no redirect, so the key never reaches another host', async () => {
    const reached: string[] = []
    const elsewhere = createHttpServer((req, res) => {
      reached.push(String(req.headers['x-api-key']))
      res.end('[]')
    })
    const redirecting = createHttpServer((_req, res) => {
      const { port } = elsewhere.address() as AddressInfo
      res.writeHead(307, { Location: `http://127.0.0.1:${port}/v2/sandboxes?limit=1` }).end()
    })
    for (const server of [elsewhere, redirecting])
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = redirecting.address() as AddressInfo
    try {
      const res = await call('POST', '/remotes', { apiKey: cloudKey, apiUrl: `http://127.0.0.1:${port}` })
      expect(res.json).toEqual({
        code: 502,
        message: `the E2B API at http://127.0.0.1:${port} answered with a redirect (307); set apiUrl to where it points`,
      })
      expect(reached).toEqual([])
    } finally {
      elsewhere.close()
      redirecting.close()
    }
  })

  it('registers a remote: checks the key, keeps it in a 0600 file, and shows only where it points', async () => {
    const res = await call('POST', '/remotes', { apiKey: cloudKey, apiUrl: `${cloud.url}/` })
    expect(res.status).toBe(201)
    expect(res.json).toEqual({
      remoteId: expect.stringMatching(/^[0-9a-f]{12}$/),
      apiUrl: cloud.url,
      domain: `localhost:${cloud.platform.port}`,
    })
    remoteId = res.json.remoteId
    expect((await call('GET', '/remotes')).json).toEqual([res.json])
    const file = join(local.dataDir, 'remotes.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(new RemoteStore(local.dataDir, () => {}).list()).toEqual([{ ...res.json, apiKey: cloudKey }])
    // The same remote again is the same remote.
    const again = await call('POST', '/remotes', { apiKey: cloudKey, apiUrl: cloud.url })
    expect(again.json.remoteId).toBe(remoteId)
  })

  it('opens a session whose runtime URL and token work against the remote’s router', async () => {
    const session = await call('GET', sandboxPath('session'))
    expect(session.status).toBe(200)
    expect(session.json).toEqual({
      source: 'e2b',
      remoteId,
      sandboxId,
      state: 'running',
      runtimeUrl: `http://49983-${sandboxId}.localhost:${cloud.platform.port}`,
      accessToken: token,
      endAt: cloud.platform.manager.get(sandboxId).endAt,
      envdVersion,
    })
    const res = await listProcesses(session.json)
    expect(res.status).toBe(200)
    expect(res.text).toBe('{}')
  })

  it('tells the remote sandbox’s latest use from the remote’s own metrics', async () => {
    const usage = await call('GET', sandboxPath('usage'))
    expect(usage.status).toBe(200)
    const { memoryMB } = cloud.platform.manager.limitsOf(cloud.platform.manager.get(sandboxId))
    expect(usage.json).toMatchObject({ memTotalMiB: memoryMB, at: expect.any(String) })
  })

  it('pauses through the remote (204, then its 409) and resumes to a running session', async () => {
    expect((await call('POST', sandboxPath('pause'))).status).toBe(204)
    const paused = await call('GET', sandboxPath('session'))
    expect(paused.json.state).toBe('paused')
    expect((await listProcesses(paused.json)).status).toBe(502)
    const again = await call('POST', sandboxPath('pause'))
    expect(again.status).toBe(409)
    expect(again.json).toEqual({
      code: 409,
      message: `Error pausing sandbox - sandbox '${sandboxId}' is already paused`,
    })

    const resumed = await call('POST', sandboxPath('resume'), { timeoutSeconds: 600 })
    expect(resumed.status).toBe(200)
    expect(resumed.json).toMatchObject({ source: 'e2b', sandboxId, state: 'running', accessToken: token })
    expect(Date.parse(resumed.json.endAt) - Date.now()).toBeGreaterThan(590_000)
    expect(cloud.platform.manager.get(sandboxId).state).toBe('running')
    expect((await listProcesses(resumed.json)).status).toBe(200)
  })

  it('sets the remote sandbox’s timeout and answers the end time the remote reports', async () => {
    const res = await call('POST', sandboxPath('timeout'), { seconds: 120 })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ endAt: cloud.platform.manager.get(sandboxId).endAt })
    const left = Date.parse(res.json.endAt) - Date.now()
    expect(left).toBeGreaterThan(110_000)
    expect(left).toBeLessThanOrEqual(120_000)
  })

  it('passes the remote’s 404 through for an unknown sandbox, and 404s an unknown remote', async () => {
    const unknown = 'q'.repeat(20)
    for (const [method, action, body] of [
      ['GET', 'session', undefined],
      ['POST', 'pause', undefined],
      ['POST', 'resume', {}],
      ['POST', 'timeout', { seconds: 60 }],
    ] as const) {
      const res = await call(method, sandboxPath(action, unknown), body)
      expect(res.status, action).toBe(404)
      expect(res.json).toEqual({
        code: 404,
        message: `Sandbox "${unknown}" doesn't exist or you don't have access to it`,
      })
    }
    const noRemote = await call('GET', `/remotes/${'0'.repeat(12)}/sandboxes/${sandboxId}/session`)
    expect(noRemote.json).toEqual({ code: 404, message: `no E2B remote '${'0'.repeat(12)}': add it again` })
  })

  it('forgets a remote and its key on DELETE', async () => {
    expect((await call('DELETE', `/remotes/${remoteId}`)).status).toBe(204)
    expect((await call('GET', '/remotes')).json).toEqual([])
    expect(new RemoteStore(local.dataDir, () => {}).list()).toEqual([])
    expect((await call('GET', sandboxPath('session'))).status).toBe(404)
    expect((await call('DELETE', `/remotes/${remoteId}`)).status).toBe(404)
  })

  it('never shows the key in a response nor a key or token in a log line', () => {
    expect(answers.length).toBeGreaterThan(20)
    expect(answers.filter((a) => a.text.includes(cloudKey))).toEqual([])
    expect(logLines.some((line) => line.includes(remoteId))).toBe(true)
    expect(logLines.filter((line) => line.includes(cloudKey) || line.includes(token))).toEqual([])
  })
})
