// CONNECT 127.0.0.1:PORT on the runtime, byte for byte, on its TCP port and its Unix socket: how
// the platform's router reaches the ports of a sandbox that has a network of its own.
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tunnelPort } from './portTunnel'
import { startTestRuntime, type TestRuntime } from './testing/runtimeFixture'

/** Sends `request` on a fresh connection and gathers what comes back until `done` says so. */
function exchange(at: { port: number } | { path: string }, request: string, done: (text: string) => boolean) {
  return new Promise<{ text: string; socket: Socket }>((resolve, reject) => {
    const socket = 'path' in at ? connect(at.path) : connect({ host: '127.0.0.1', port: at.port })
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => {
      text += chunk
      if (done(text)) resolve({ text, socket })
    })
    socket.on('end', () => resolve({ text, socket }))
    socket.on('error', reject)
    socket.write(request)
  })
}

describe('CONNECT tunnels to the sandbox’s ports', () => {
  let rt: TestRuntime
  let echo: Server
  let echoPort: number
  let socketDir: string

  beforeAll(async () => {
    socketDir = mkdtempSync(join(tmpdir(), 'tunnel-'))
    rt = await startTestRuntime({ socket: join(socketDir, 'envd.sock') })
    echo = createServer((socket) => socket.pipe(socket))
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
    echoPort = (echo.address() as { port: number }).port
  })
  afterAll(async () => {
    echo.close()
    await rt.close()
    rmSync(socketDir, { recursive: true, force: true })
  })

  it('reads only loopback targets with a valid port', () => {
    expect(tunnelPort('127.0.0.1:8000')).toBe(8000)
    expect(tunnelPort('localhost:1')).toBe(1)
    expect(tunnelPort('[::1]:65535')).toBe(65535)
    for (const bad of [
      '10.0.0.1:80',
      'example.com:443',
      '127.0.0.1:0',
      '127.0.0.1:65536',
      '127.0.0.1',
      '',
      undefined,
    ])
      expect(tunnelPort(bad), String(bad)).toBeUndefined()
  })

  it('refuses a caller without the access token', async () => {
    const { text } = await exchange(
      { port: rt.runtime.port },
      `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: x\r\n\r\n`,
      (t) => t.includes('\r\n\r\n'),
    )
    expect(text.startsWith('HTTP/1.1 401 ')).toBe(true)
  })

  it('joins the caller to an open port, over the Unix socket too, and says when nothing listens', async () => {
    for (const at of [{ port: rt.runtime.port }, { path: join(socketDir, 'envd.sock') }]) {
      const open = await exchange(
        at,
        `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: x\r\nX-Access-Token: ${rt.token}\r\n\r\nfirst bytes`,
        (t) => t.endsWith('first bytes'),
      )
      expect(open.text).toBe('HTTP/1.1 200 Connection Established\r\n\r\nfirst bytes')
      open.socket.destroy()
    }
    const closed = await exchange(
      { port: rt.runtime.port },
      `CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\nX-Access-Token: ${rt.token}\r\n\r\n`,
      (t) => t.includes('port 1'),
    )
    expect(closed.text).toMatch(
      /^HTTP\/1\.1 502 Bad Gateway\r\n[\s\S]*nothing listens on port 1 \(ECONNREFUSED\)/,
    )
    const elsewhere = await exchange(
      { port: rt.runtime.port },
      `CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\nX-Access-Token: ${rt.token}\r\n\r\n`,
      (t) => t.includes('PORT'),
    )
    expect(elsewhere.text.startsWith('HTTP/1.1 400 Bad Request')).toBe(true)
  })
})
