// Faults a network brings: a client that sends headers and then nothing, a body that stops
// half-way, a reader that stops reading, a runtime killed mid-request. Each ends within a stated
// bound with a clear answer, and nobody else waits for it.
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { longLivedServerOptions } from '../http/longLivedServerOptions'
import { bodyIdleMs } from '../platform/api/httpJson'
import { startTestPlatform, type TestPlatform } from '../platform/testing/platformFixture'
import { rawRequest } from '../platform/testing/rawHttp'

/** A raw connection to the stack, and everything it received until it closed. */
function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1')
  let received = ''
  socket.on('data', (d: Buffer) => {
    received += d.toString('latin1')
  })
  const closed = new Promise<number>((resolve) => {
    const started = performance.now()
    socket.on('close', () => resolve(performance.now() - started))
  })
  socket.on('error', () => {})
  return { socket, closed, received: () => received }
}

describe('faults', () => {
  let tp: TestPlatform
  let sandbox: { id: string; token: string }
  const runtimeCall = (path: string, body: unknown, id = sandbox.id) =>
    rawRequest({
      port: tp.platform.port,
      method: 'POST',
      path,
      headers: {
        Host: `49983-${id}.localhost:${tp.platform.port}`,
        'Content-Type': 'application/json',
        'X-Access-Token': sandbox.token,
      },
      body: JSON.stringify(body),
    })

  /** A server-streaming Connect call over a raw connection, its one request message sent. */
  const openStream = (path: string, message: unknown) => {
    const connection = rawConnection(tp.platform.port)
    const body = Buffer.from(JSON.stringify(message))
    const frame = Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), body])
    frame.writeUInt32BE(body.length, 1)
    connection.socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 49983-${sandbox.id}.localhost:${tp.platform.port}\r\n` +
        `Content-Type: application/connect+json\r\nConnect-Protocol-Version: 1\r\nX-Access-Token: ${sandbox.token}\r\n` +
        `Content-Length: ${frame.length}\r\n\r\n`,
    )
    connection.socket.write(frame)
    return connection
  }

  beforeAll(async () => {
    tp = await startTestPlatform()
    const res = await tp.api('POST', '/sandboxes', { templateID: 'base', timeout: 600 })
    const body = (await res.json()) as { sandboxID: string; envdAccessToken: string }
    sandbox = { id: body.sandboxID, token: body.envdAccessToken }
  }, 60_000)
  afterAll(() => tp?.close())

  it('drops a client that sends half its headers and then nothing (slow loris), serving others meanwhile', async () => {
    const slow = rawConnection(tp.platform.port)
    slow.socket.write(
      `POST /sandboxes HTTP/1.1\r\nHost: 127.0.0.1:${tp.platform.port}\r\nX-API-Key: ${tp.apiKey}\r\n`,
    )
    // Meanwhile everyone else is served at once.
    for (let i = 0; i < 5; i++) expect((await tp.api('GET', '/v2/sandboxes')).status).toBe(200)
    const ms = await slow.closed
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /)
    // The bound is the headers timeout, checked every second.
    expect(ms).toBeLessThan(
      longLivedServerOptions.headersTimeout + 2 * longLivedServerOptions.connectionsCheckingInterval + 1000,
    )
    expect(tp.platform.manager.list()).toHaveLength(1)
  }, 30_000)

  it('answers 408 to a JSON body that stops half-way, and creates nothing', async () => {
    const half = rawConnection(tp.platform.port)
    half.socket.write(
      `POST /sandboxes HTTP/1.1\r\nHost: 127.0.0.1:${tp.platform.port}\r\nX-API-Key: ${tp.apiKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"templateID": "ba',
    )
    const started = performance.now()
    await vi.waitFor(() => expect(half.received()).toMatch(/^HTTP\/1\.1 408 /), {
      timeout: bodyIdleMs + 2000,
    })
    expect(performance.now() - started).toBeLessThan(bodyIdleMs + 2000)
    expect(half.received()).toContain('the request body stopped arriving')
    expect(tp.platform.manager.list()).toHaveLength(1)
    half.socket.destroy()
  }, 30_000)

  it('keeps answering other calls of a sandbox while one reader of a flood stops reading', async () => {
    const stalled = openStream('/process.Process/Start', {
      process: { cmd: '/usr/bin/yes', args: ['flood'] },
      tag: 'flood',
    })
    // Stop reading: the kernel buffers fill, then the runtime must hold back, not buffer forever.
    await new Promise((r) => setTimeout(r, 300))
    stalled.socket.pause()
    await new Promise((r) => setTimeout(r, 1500))
    for (let i = 0; i < 5; i++) {
      const started = performance.now()
      const res = await runtimeCall('/filesystem.Filesystem/ListDir', { path: '/home/user' })
      expect(res.status).toBe(200)
      expect(performance.now() - started).toBeLessThan(2000)
    }
    const list = await runtimeCall('/process.Process/List', {})
    const flood = (JSON.parse(list.text) as { processes: { pid: number; tag?: string }[] }).processes.find(
      (p) => p.tag === 'flood',
    )
    expect(flood).toBeDefined()
    expect(
      (
        await runtimeCall('/process.Process/SendSignal', {
          process: { pid: flood?.pid },
          signal: 'SIGNAL_SIGKILL',
        })
      ).status,
    ).toBe(200)
    stalled.socket.destroy()
  }, 30_000)

  it('presents no partial file when an upload stops half-way and its client goes away', async () => {
    const upload = rawConnection(tp.platform.port)
    const boundary = 'fuzzboundary'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.txt"\r\n\r\n`
    upload.socket.write(
      `POST /files?path=${encodeURIComponent('/home/user/half.txt')} HTTP/1.1\r\n` +
        `Host: 49983-${sandbox.id}.localhost:${tp.platform.port}\r\nX-Access-Token: ${sandbox.token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${1024 * 1024}\r\n\r\n`,
    )
    upload.socket.write(head + 'x'.repeat(64 * 1024))
    await new Promise((r) => setTimeout(r, 500))
    upload.socket.destroy()
    await upload.closed
    await new Promise((r) => setTimeout(r, 500))
    const stat = await runtimeCall('/filesystem.Filesystem/Stat', { path: '/home/user/half.txt' })
    expect(stat.status).toBe(404)
    const list = await runtimeCall('/filesystem.Filesystem/ListDir', { path: '/home/user' })
    // Nor a temporary file beside it.
    expect(JSON.parse(list.text).entries ?? []).toEqual([])
  })

  it('ends a request in flight when its runtime is killed, and says the sandbox is not answering', async () => {
    // A watch: a stream that would stay open for as long as the runtime lives.
    const watch = openStream('/filesystem.Filesystem/WatchDir', { path: '/home/user' })
    await new Promise((r) => setTimeout(r, 500))
    expect(watch.received()).toMatch(/^HTTP\/1\.1 200 /)
    const pid = tp.platform.manager.launchedPid(sandbox.id)
    expect(pid).toBeDefined()
    process.kill(pid as number, 'SIGKILL')
    const ms = await watch.closed
    expect(ms).toBeLessThan(5000)
    // The platform keeps answering, and a call to the dead runtime gets E2B's 502 with a reason.
    expect((await tp.api('GET', '/v2/sandboxes')).status).toBe(200)
    const after = await runtimeCall('/filesystem.Filesystem/ListDir', { path: '/home/user' })
    expect(after.status).toBe(502)
    expect(JSON.parse(after.text).message).toMatch(/sandbox/i)
  }, 30_000)
})
