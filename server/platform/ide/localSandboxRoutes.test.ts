// The IDE's local sandbox picker and sessions: create, list, open, pause, resume, timeout, kill,
// the default sandbox, and a session's runtime URL and token reaching the runtime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envdVersion } from '../../runtime/version'
import { defaultSandboxId, ensureDefaultSandbox } from '../defaultSandbox'
import { type IdeAnswer, ideCall } from '../testing/ideCall'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'
import { rawRequest } from '../testing/rawHttp'

describe('IDE API: local sandboxes', () => {
  let tp: TestPlatform
  const answers: IdeAnswer[] = []
  const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await ideCall(tp.platform, method, path, body, headers)
    answers.push(res)
    return res
  }
  /** POST /process.Process/List through the router, at a session's runtime URL with its token. */
  const listProcesses = (session: { runtimeUrl: string; accessToken: string }) =>
    rawRequest({
      port: tp.platform.port,
      host: new URL(session.runtimeUrl).host,
      method: 'POST',
      path: '/process.Process/List',
      headers: { 'Content-Type': 'application/json', 'X-Access-Token': session.accessToken },
      body: '{}',
    })
  const notFound = (id: string) => ({
    code: 404,
    message: `Sandbox "${id}" doesn't exist or you don't have access to it`,
  })

  beforeAll(async () => {
    tp = await startTestPlatform()
  })
  afterAll(() => tp.close())

  it('describes the stack, with the default sandbox once there is one', async () => {
    const { launcher } = tp.platform
    const before = await call('GET', '/stack')
    expect(before.status).toBe(200)
    expect(before.json).toEqual({
      isolation: launcher.isolation,
      network: launcher.network,
      system: launcher.system,
      root: { kind: launcher.root, ...(launcher.rootWarning ? { warning: launcher.rootWarning } : {}) },
      limits: { kind: launcher.limits.kind, enforced: launcher.limits.enforced },
      disk: { kind: tp.platform.disks.kind },
      freezer: launcher.freezer,
      ...(launcher.warning ? { warning: launcher.warning } : {}),
      envdVersion,
      defaultSandboxId: null,
    })
    const options = { dataDir: tp.dataDir, timeoutSeconds: 3600 }
    const id = await ensureDefaultSandbox(tp.platform.manager, options)
    expect((await call('GET', '/stack')).json.defaultSandboxId).toBe(id)
    const listed = (await call('GET', '/sandboxes')).json
    expect(listed).toEqual([
      {
        sandboxId: id,
        templateId: 'base',
        state: 'running',
        startedAt: expect.any(String),
        endAt: expect.any(String),
        metadata: { purpose: 'ide-default' },
        processesLost: false,
        isDefault: true,
      },
    ])
    // Paused, it is resumed (not replaced) on the next start; killed, a new one takes its place.
    expect((await call('POST', `/sandboxes/${id}/pause`)).status).toBe(204)
    expect(await ensureDefaultSandbox(tp.platform.manager, options)).toBe(id)
    expect(tp.platform.manager.get(id).state).toBe('running')
    expect((await call('DELETE', `/sandboxes/${id}`)).status).toBe(204)
    expect((await call('GET', '/stack')).json.defaultSandboxId).toBeNull()
    const next = await ensureDefaultSandbox(tp.platform.manager, options)
    expect(next).not.toBe(id)
    expect(defaultSandboxId(tp.dataDir, tp.platform.manager)).toBe(next)
    await call('DELETE', `/sandboxes/${next}`)
  })

  it('creates sandboxes that pause on timeout, with the default sandbox timeout unless asked', async () => {
    const created = await call('POST', '/sandboxes')
    expect(created.status).toBe(201)
    expect(created.json).toEqual({
      sandboxId: expect.stringMatching(/^[a-z0-9]{20}$/),
      templateId: 'base',
      state: 'running',
      startedAt: expect.any(String),
      endAt: expect.any(String),
      metadata: { purpose: 'ide' },
      processesLost: false,
      isDefault: false,
    })
    const lasts = (s: { startedAt: string; endAt: string }) => Date.parse(s.endAt) - Date.parse(s.startedAt)
    expect(lasts(created.json)).toBeGreaterThan(3500_000)
    const short = await call('POST', '/sandboxes', { timeoutSeconds: 60 })
    expect(lasts(short.json)).toBeGreaterThan(50_000)
    expect(lasts(short.json)).toBeLessThanOrEqual(61_000)
    const detail = await (await tp.api('GET', `/sandboxes/${short.json.sandboxId}`)).json()
    expect(detail.lifecycle.onTimeout).toBe('pause')
    const ids = (await call('GET', '/sandboxes')).json.map((s: { sandboxId: string }) => s.sandboxId)
    expect(ids).toEqual([created.json.sandboxId, short.json.sandboxId])
    for (const id of ids) expect((await call('DELETE', `/sandboxes/${id}`)).status).toBe(204)
    expect((await call('GET', '/sandboxes')).json).toEqual([])
  })

  it('lists the templates, base first, and creates a sandbox from one', async () => {
    const templates = await call('GET', '/templates')
    expect(templates.status).toBe(200)
    // The platform's default catalog: base, then each folder of the project's labs/.
    expect(templates.json[0]).toEqual({ templateId: 'base' })
    expect(templates.json).toContainEqual({ templateId: 'python-basics' })
    const created = await call('POST', '/sandboxes', { templateId: 'python-basics', timeoutSeconds: 120 })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ templateId: 'python-basics', state: 'running' })
    const { sandboxId: id } = created.json
    expect(tp.platform.manager.get(id).templateID).toBe('python-basics')
    expect((await call('GET', '/sandboxes')).json).toContainEqual(
      expect.objectContaining({ sandboxId: id, templateId: 'python-basics' }),
    )
    await call('DELETE', `/sandboxes/${id}`)
  })

  it('refuses a template that is not there, or not a name, and bad bodies, creating nothing', async () => {
    const unknown = await call('POST', '/sandboxes', { templateId: 'python-gpu' })
    expect(unknown.status).toBe(404)
    expect(unknown.json.message).toMatch(/^template 'python-gpu' not found: this local platform has 'base'/)
    for (const templateId of ['../etc', 'a/b', 'Upper']) {
      const res = await call('POST', '/sandboxes', { templateId })
      expect(res.status, templateId).toBe(400)
      expect(res.json.message).toContain('is not valid')
    }
    for (const body of [{ templateId: 5 }, { templateId: '' }, { template: 'base' }, '{"templateId":']) {
      const res = await call('POST', '/sandboxes', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json).toEqual({ code: 400, message: expect.any(String) })
    }
    expect((await call('GET', '/sandboxes')).json).toEqual([])
  })

  it('opens a session whose runtime URL and token reach the runtime through the router', async () => {
    const { sandboxId: id } = (await call('POST', '/sandboxes', { timeoutSeconds: 120 })).json
    const session = await call('GET', `/sandboxes/${id}/session`)
    expect(session.status).toBe(200)
    expect(session.json).toEqual({
      source: 'local',
      sandboxId: id,
      state: 'running',
      runtimeUrl: `http://49983-${id}.localhost:${tp.platform.port}`,
      accessToken: tp.platform.manager.get(id).envdAccessToken,
      endAt: tp.platform.manager.get(id).endAt,
      envdVersion,
      processesLost: false,
    })
    const res = await listProcesses(session.json)
    expect(res.status).toBe(200)
    expect(res.text).toBe('{}')
    // The port is the one the page used, whichever loopback name it was opened with.
    const viaOther = await call('GET', `/sandboxes/${id}/session`, undefined, { Host: '127.0.0.1:9999' })
    expect(viaOther.json.runtimeUrl).toBe(`http://49983-${id}.localhost:9999`)
    const noPort = await call('GET', `/sandboxes/${id}/session`, undefined, { Host: 'localhost' })
    expect(noPort.json.runtimeUrl).toBe(`http://49983-${id}.localhost`)
    // Only a session carries the token.
    const token = session.json.accessToken
    const others = answers.filter((a) => !a.text.includes('"source":"local"'))
    expect(others.filter((a) => a.text.includes(token))).toEqual([])
    await call('DELETE', `/sandboxes/${id}`)
  })

  it('tells a sandbox’s latest use against its limits, for the status bar’s meters', async () => {
    const { sandboxId: id } = (await call('POST', '/sandboxes', { timeoutSeconds: 120 })).json
    // A first sample is taken as the sandbox starts.
    const usage = await call('GET', `/sandboxes/${id}/usage`)
    expect(usage.status).toBe(200)
    const { memoryMB } = tp.platform.manager.limitsOf(tp.platform.manager.get(id))
    expect(usage.json).toEqual({
      cpuUsedPct: expect.any(Number),
      cpuCount: expect.any(Number),
      memUsedMiB: expect.any(Number),
      memTotalMiB: memoryMB,
      at: expect.any(String),
    })
    expect(usage.json.memUsedMiB).toBeGreaterThan(0)
    expect((await call('GET', '/sandboxes/aaaaaaaaaaaaaaaaaaaa/usage')).status).toBe(404)
    await call('DELETE', `/sandboxes/${id}`)
  })

  it('pauses (204, then 409), resumes to a running session (200), and sets timeouts', async () => {
    const { sandboxId: id } = (await call('POST', '/sandboxes', { timeoutSeconds: 120 })).json
    const session = (await call('GET', `/sandboxes/${id}/session`)).json
    expect((await call('POST', `/sandboxes/${id}/pause`)).status).toBe(204)
    expect((await call('GET', `/sandboxes/${id}/session`)).json.state).toBe('paused')
    expect((await listProcesses(session)).status).toBe(502)
    const again = await call('POST', `/sandboxes/${id}/pause`)
    expect(again.status).toBe(409)
    expect(again.json).toEqual({
      code: 409,
      message: `Error pausing sandbox - sandbox '${id}' is already paused`,
    })

    const resumed = await call('POST', `/sandboxes/${id}/resume`, { timeoutSeconds: 600 })
    expect(resumed.status).toBe(200)
    expect(resumed.json).toEqual({ ...session, state: 'running', endAt: expect.any(String) })
    expect(Date.parse(resumed.json.endAt) - Date.now()).toBeGreaterThan(590_000)
    expect((await listProcesses(resumed.json)).status).toBe(200)
    // Resuming a running sandbox is fine: it only ever extends its timeout.
    const running = await call('POST', `/sandboxes/${id}/resume`)
    expect(running.status).toBe(200)
    expect(Date.parse(running.json.endAt) - Date.now()).toBeGreaterThan(3500_000)

    const timeout = await call('POST', `/sandboxes/${id}/timeout`, { seconds: 30 })
    expect(timeout.status).toBe(200)
    expect(timeout.json).toEqual({ endAt: tp.platform.manager.get(id).endAt })
    const left = Date.parse(timeout.json.endAt) - Date.now()
    expect(left).toBeGreaterThan(20_000)
    expect(left).toBeLessThanOrEqual(30_000)
    await call('DELETE', `/sandboxes/${id}`)
  })

  it('answers 404 with the platform’s message for an unknown sandbox', async () => {
    const id = 'z'.repeat(20)
    for (const [method, path, body] of [
      ['GET', `/sandboxes/${id}/session`, undefined],
      ['POST', `/sandboxes/${id}/pause`, undefined],
      ['POST', `/sandboxes/${id}/resume`, {}],
      ['POST', `/sandboxes/${id}/timeout`, { seconds: 60 }],
      ['DELETE', `/sandboxes/${id}`, undefined],
    ] as const) {
      const res = await call(method, path, body)
      expect(res.status, `${method} ${path}`).toBe(404)
      expect(res.json).toEqual(notFound(id))
    }
  })

  it('resumes a sandbox after a platform restart with a fresh runtime', async () => {
    const { sandboxId: id } = (await call('POST', '/sandboxes', { timeoutSeconds: 120 })).json
    await tp.close({ keepData: true })
    tp = await startTestPlatform({ dataDir: tp.dataDir })
    const listed = (await call('GET', '/sandboxes')).json
    expect(listed).toMatchObject([{ sandboxId: id, state: 'paused', processesLost: true }])
    expect((await call('GET', `/sandboxes/${id}/session`)).json).toMatchObject({
      state: 'paused',
      processesLost: true,
    })
    const resumed = await call('POST', `/sandboxes/${id}/resume`)
    expect(resumed.status).toBe(200)
    expect(resumed.json).toMatchObject({ sandboxId: id, state: 'running', processesLost: false })
    expect((await listProcesses(resumed.json)).status).toBe(200)
  })
})
