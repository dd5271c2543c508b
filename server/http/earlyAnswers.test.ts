// An answer sent before the request's body is in (413 past a size limit, 401 without a key,
// a runtime's 401 through the router) never poisons its keep-alive connection: the next request
// on the same socket is answered, whether the body was declared or chunked, small or large.
import { Agent, request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform } from '../platform/testing/platformFixture'

interface Answer {
  status?: number
  error?: string
  reused: boolean
}

/** One request on `agent`; `chunked` streams the body in 64 KiB writes without a length. */
function send(
  agent: Agent,
  port: number,
  options: {
    method: string
    path: string
    headers: Record<string, string>
    body?: Buffer
    chunked?: boolean
  },
): Promise<Answer> {
  return new Promise((resolve) => {
    const { body, chunked = false } = options
    const headers =
      body && !chunked ? { ...options.headers, 'Content-Length': String(body.length) } : options.headers
    const req = request({
      agent,
      host: '127.0.0.1',
      port,
      method: options.method,
      path: options.path,
      headers,
    })
    const timer = setTimeout(() => {
      req.destroy()
      resolve({ error: 'no answer within 5 s', reused: req.reusedSocket })
    }, 5000)
    req.on('response', (res) => {
      res.resume()
      res.on('end', () => {
        clearTimeout(timer)
        resolve({ status: res.statusCode, reused: req.reusedSocket })
      })
    })
    req.on('error', (err) => {
      clearTimeout(timer)
      resolve({ error: err.message, reused: req.reusedSocket })
    })
    if (body && chunked) {
      for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024))
      req.end()
    } else req.end(body)
  })
}

describe('early answers keep the connection usable', () => {
  let tp: TestPlatform
  let sandbox: { id: string; token: string }
  beforeAll(async () => {
    tp = await startTestPlatform()
    const res = await tp.api('POST', '/sandboxes', { templateID: 'base' })
    const body = (await res.json()) as { sandboxID: string; envdAccessToken: string }
    sandbox = { id: body.sandboxID, token: body.envdAccessToken }
  }, 60_000)
  afterAll(() => tp?.close())

  const big = Buffer.alloc(3 * 1024 * 1024, 'a')
  interface Case {
    name: string
    /** The answer's status; either of two where the outcome depends on timing. */
    status: number | [number, number]
    request: { method: string; path: string; headers: Record<string, string>; body: Buffer }
  }
  const cases = (): Case[] => [
    {
      name: 'POST /sandboxes, 3 MiB (413)',
      status: 413,
      request: {
        method: 'POST',
        path: '/sandboxes',
        headers: { 'X-API-Key': tp.apiKey, 'Content-Type': 'application/json' },
        body: big,
      },
    },
    {
      name: 'POST /sandboxes without a key, 3 MiB (401)',
      status: 401,
      request: {
        method: 'POST',
        path: '/sandboxes',
        headers: { 'Content-Type': 'application/json' },
        body: big,
      },
    },
    {
      name: 'POST /ide/api/sandboxes without the IDE token, 3 MiB (401)',
      status: 401,
      request: {
        method: 'POST',
        path: '/ide/api/sandboxes',
        headers: { 'X-Sandbox-IDE': '1', 'Content-Type': 'application/json' },
        body: big,
      },
    },
    {
      name: "a runtime's 401 through the router, 9 MiB",
      status: 401,
      request: {
        method: 'POST',
        path: '/filesystem.Filesystem/ListDir',
        headers: {
          Host: `49983-${sandbox.id}.localhost:${tp.platform.port}`,
          'Content-Type': 'application/json',
          'X-Access-Token': 'wrong',
        },
        body: Buffer.alloc(9 * 1024 * 1024, 'a'),
      },
    },
    {
      // connect-node refuses the message by its envelope's length and destroys the request; the
      // runtime then closes the connection. A chunked body still coming then may break the
      // router's call first (E2B's 502) instead of carrying the Connect error (200).
      name: 'a stream whose first message claims 2 GB, 3 MiB sent (Connect resource_exhausted)',
      status: [200, 502],
      request: {
        method: 'POST',
        path: '/process.Process/Connect',
        headers: {
          Host: `49983-${sandbox.id}.localhost:${tp.platform.port}`,
          'Content-Type': 'application/connect+json',
          'Connect-Protocol-Version': '1',
          'X-Access-Token': sandbox.token,
        },
        body: Buffer.alloc(3 * 1024 * 1024, '{'),
      },
    },
    {
      name: 'an upload to /files with a bad path, 3 MiB (400)',
      status: 400,
      request: {
        method: 'POST',
        path: `/files?path=${encodeURIComponent('~nobody-at-all/x')}`,
        headers: {
          Host: `49983-${sandbox.id}.localhost:${tp.platform.port}`,
          'Content-Type': 'application/octet-stream',
          'X-Access-Token': sandbox.token,
        },
        body: big,
      },
    },
  ]

  for (const chunked of [false, true])
    it(`answers the next request on the same agent after each (${chunked ? 'chunked' : 'with a length'})`, async () => {
      for (const c of cases()) {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 })
        const early = await send(agent, tp.platform.port, { ...c.request, chunked })
        const expected = typeof c.status === 'number' ? [c.status] : c.status
        expect(expected, `${c.name}: ${early.status ?? early.error}`).toContain(early.status)
        const next = await send(agent, tp.platform.port, {
          method: 'GET',
          path: '/v2/sandboxes',
          headers: { 'X-API-Key': tp.apiKey },
        })
        expect(next.status ?? next.error, `${c.name}: the next request`).toBe(200)
        // And the sandbox's runtime, through the router's own pool of connections to it.
        const health = await send(agent, tp.platform.port, {
          method: 'GET',
          path: '/health',
          headers: { Host: `49983-${sandbox.id}.localhost:${tp.platform.port}` },
        })
        expect(health.status ?? health.error, `${c.name}: the runtime after it`).toBe(204)
        agent.destroy()
      }
    })
})
