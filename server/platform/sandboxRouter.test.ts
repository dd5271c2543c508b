// Routing to a sandbox's runtime by host name and by E2B's headers, and the 502s when it can't.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envelope, splitEnvelopes } from '../runtime/testing/wire'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'
import { rawRequest } from './testing/rawHttp'

describe('sandbox router', () => {
  let tp: TestPlatform
  let id: string
  let token: string
  const rpc = (host: string | undefined, headers: Record<string, string> = {}) =>
    rawRequest({
      port: tp.platform.port,
      ...(host ? { host } : {}),
      method: 'POST',
      path: '/process.Process/List',
      headers: { 'Content-Type': 'application/json', 'X-Access-Token': token, ...headers },
      body: '{}',
    })

  beforeAll(async () => {
    tp = await startTestPlatform()
    const created = await tp.createSandbox()
    id = created.sandboxID
    token = created.envdAccessToken
  })
  afterAll(() => tp.close())

  it('reaches the runtime by host name {port}-{id}.localhost', async () => {
    const res = await rpc(`49983-${id}.localhost:${tp.platform.port}`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('{}')
  })

  it('reaches the runtime through connection-shard host names s1. to s64.', async () => {
    for (const shard of ['s1', 's7', 's64', 'S12']) {
      const res = await rpc(`${shard}.49983-${id}.localhost:${tp.platform.port}`)
      expect(res.status, shard).toBe(200)
      expect(res.text).toBe('{}')
    }
  })

  it('answers any other label in front of a sandbox host with the not-found 502, never the IDE', async () => {
    for (const label of ['s0', 's65', 's99', 'x1', 's', 's01', '']) {
      const res = await rpc(`${label}.49983-${id}.localhost`)
      expect(res.status, label).toBe(502)
      expect(JSON.parse(res.text)).toMatchObject({ message: 'The sandbox was not found', code: 502 })
    }
  })

  it('reaches the runtime by E2b-Sandbox-Id and E2b-Sandbox-Port on the platform’s host', async () => {
    const res = await rpc(undefined, { 'E2b-Sandbox-Id': id, 'E2b-Sandbox-Port': '49983' })
    expect(res.status).toBe(200)
  })

  it('passes the runtime’s own answers through, such as a 401 for a wrong token', async () => {
    const res = await rpc(`49983-${id}.localhost`, { 'X-Access-Token': 'wrong' })
    expect(res.status).toBe(401)
    expect(JSON.parse(res.text).code).toBe(401)
  })

  it('streams through without buffering: a Start stream shows its start event while the process runs', async () => {
    const controller = new AbortController()
    const res = await fetch(`${tp.url}/process.Process/Start`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/connect+json', 'X-Access-Token': token, 'E2b-Sandbox-Id': id },
      body: envelope(JSON.stringify({ process: { cmd: 'sleep', args: ['30'] } })),
      signal: controller.signal,
    })
    const { value } = await (res.body as ReadableStream<Uint8Array>).getReader().read()
    expect(splitEnvelopes(value as Uint8Array)[0]?.json.event.start.pid).toBeGreaterThan(0)
    controller.abort()
  })

  it('detaches a process the moment its client goes away in the middle of its output', async () => {
    // A write after the socket closed never settles in Node, so connect-node never resumes the
    // runtime's stream: its subscription must end on the abort alone (releaseWhenClientLeaves). Racy by
    // nature, so tried ten times; before, about a third stayed attached for good.
    const headers = { 'X-Access-Token': token, 'E2b-Sandbox-Id': id }
    const call = (method: string, body: unknown) =>
      fetch(`${tp.url}/process.Process/${method}`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
    for (let i = 0; i < 10; i++) {
      const leave = new AbortController()
      const res = await fetch(`${tp.url}/process.Process/Start`, {
        method: 'POST',
        signal: leave.signal,
        headers: { ...headers, 'Content-Type': 'application/connect+json' },
        body: envelope(
          JSON.stringify({
            process: { cmd: 'sh', args: ['-c', 'while :; do echo x; done'] },
            pty: { size: { cols: 80, rows: 24 } },
          }),
        ),
      })
      const { value } = await (res.body as ReadableStream<Uint8Array>).getReader().read()
      const pid = splitEnvelopes(value as Uint8Array)[0]?.json.event.start.pid as number
      leave.abort()
      await expect
        .poll(async () => {
          const list = await call('List', {})
          await list.body?.cancel()
          return list.headers.get('X-Attached-Pids')?.split(',').map(Number)
        })
        .not.toContain(pid)
      await (await call('SendSignal', { process: { pid }, signal: 'SIGNAL_SIGKILL' })).text()
    }
  })

  it('answers an unknown sandbox with E2B’s 502 body and CORS headers', async () => {
    const res = await rpc(`49983-${'z'.repeat(20)}.localhost`, { Origin: 'http://ide.example' })
    expect(res.status).toBe(502)
    expect(JSON.parse(res.text)).toEqual({
      sandboxId: 'z'.repeat(20),
      message: 'The sandbox was not found',
      code: 502,
    })
    expect(res.headers['access-control-allow-origin']).toBe('*')
  })

  it('answers a paused sandbox with 502, lets its preflight through, and routes again after resume', async () => {
    await tp.api('POST', `/sandboxes/${id}/pause`)
    const res = await rpc(`49983-${id}.localhost`)
    expect(res.status).toBe(502)
    expect(JSON.parse(res.text)).toEqual({
      sandboxId: id,
      message: expect.stringContaining('paused'),
      code: 502,
    })
    expect(res.headers['access-control-allow-origin']).toBe('*')
    const preflight = await rawRequest({
      port: tp.platform.port,
      host: `49983-${id}.localhost`,
      method: 'OPTIONS',
      path: '/process.Process/List',
      headers: {
        Origin: 'http://ide.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-access-token',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-headers']).toBe('x-access-token')
    await tp.api('POST', `/v2/sandboxes/${id}/connect`, {})
    expect((await rpc(`49983-${id}.localhost`)).status).toBe(200)
  })

  it('answers a port the sandbox does not serve with 502 and the port', async () => {
    const res = await rpc(`3000-${id}.localhost`)
    expect(res.status).toBe(502)
    expect(JSON.parse(res.text)).toEqual({
      sandboxId: id,
      message: 'The sandbox is running but port is not open',
      port: 3000,
      code: 502,
    })
  })

  it('treats hostile ids in hosts and headers as unknown sandboxes', async () => {
    for (const host of ['49983-..%2f.localhost', '49983-ABC.localhost', `49983-${id}x.localhost`]) {
      expect((await rpc(host)).status).toBe(502)
    }
    expect((await rpc(undefined, { 'E2b-Sandbox-Id': '../../etc/passwd' })).status).toBe(502)
  })
})
