// The --tls server's bounds on slow and idle clients (issue 44): whoever stalls before its
// request's headers are whole is cut off, an idle connection is closed, and nobody else waits;
// long-lived streams, however quiet, are never cut. With bounds of about a second instead of
// the stack's 4 + 10 s and 640 s.
import { mkdtempSync, rmSync } from 'node:fs'
import { type ClientHttp2Session, connect as h2connect } from 'node:http2'
import { request } from 'node:https'
import { type Socket, connect as tcpConnect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect as tlsConnect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localCertificate } from './localCertificate'
import { type SecureServer, type SecureServerBounds, secureServer, secureServerBounds } from './secureServer'

const bounds: SecureServerBounds = { handshakeMs: 800, headersMs: 1000, idleMs: 3000, checkEveryMs: 100 }
/** Longer than every bound: a stream quiet this long must stay open. */
const quietMs = 3500
/** What a busy test machine may add to a bound. */
const slackMs = 1000
const insecure = { rejectUnauthorized: false }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A raw client connection: what it received, and when it closed (ms from its start or `restart()`). */
function watch(socket: Socket) {
  let received = Buffer.alloc(0)
  let start = performance.now()
  socket.on('data', (d: Buffer) => {
    received = Buffer.concat([received, d])
  })
  socket.on('error', () => {}) // the close is the point
  return {
    socket,
    received: () => received.toString('latin1'),
    restart: () => {
      start = performance.now()
    },
    closed: new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - start))),
  }
}

/** A TLS connection speaking `alpn`, its clock started once the handshake is done. */
async function tlsClient(port: number, alpn: 'h2' | 'http/1.1') {
  const socket = tlsConnect({ port, host: '127.0.0.1', ALPNProtocols: [alpn], ...insecure })
  const client = watch(socket)
  await new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', () => resolve())
    socket.once('error', reject)
  })
  expect(socket.alpnProtocol).toBe(alpn)
  client.restart()
  return client
}

// HTTP/2 by hand, for the frames a well-behaved client never stops between.
function frame(type: number, flags: number, streamId: number, payload = Buffer.alloc(0)) {
  const head = Buffer.alloc(9)
  head.writeUIntBE(payload.length, 0, 3)
  head[3] = type
  head[4] = flags
  head.writeUInt32BE(streamId, 5)
  return Buffer.concat([head, payload])
}
const h2 = {
  preface: Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), frame(4, 0, 0), frame(4, 1, 0)]),
  /** HPACK: GET, /, https (static table), :authority 127.0.0.1 (literal). */
  requestBlock: Buffer.concat([Buffer.from([0x82, 0x84, 0x87, 0x41, 9]), Buffer.from('127.0.0.1')]),
  /** A whole request: HEADERS with END_STREAM and END_HEADERS. */
  request: (id: number) => frame(1, 0x1 | 0x4, id, h2.requestBlock),
  /** Its first half, without END_HEADERS: a CONTINUATION must follow. */
  halfRequest: (id: number) => frame(1, 0x1, id, h2.requestBlock.subarray(0, 4)),
}

describe('the TLS server with slow and idle clients', () => {
  let server: SecureServer
  let port: number
  let dataDir: string

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tls-slow-'))
    server = secureServer(
      localCertificate(dataDir),
      (req, res) => {
        if (req.url === '/stream') {
          // A server stream that says something, is quiet past every bound, then more.
          res.writeHead(200, { 'content-type': 'text/plain' })
          res.write('first,')
          setTimeout(() => res.end('second'), quietMs)
        } else if (req.url === '/count') {
          let bytes = 0
          req.on('data', (chunk: Buffer) => {
            bytes += chunk.length
          })
          req.on('end', () => res.end(String(bytes)))
        } else res.end('hello')
      },
      bounds,
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as { port: number }).port
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    rmSync(dataDir, { recursive: true, force: true })
  })

  const h2Session = async () => {
    const session = h2connect(`https://127.0.0.1:${port}`, insecure)
    session.on('error', () => {})
    await new Promise<void>((resolve) => session.once('remoteSettings', () => resolve()))
    return session
  }
  const h2Get = (session: ClientHttp2Session, path = '/') =>
    new Promise<string>((resolve, reject) => {
      const stream = session.request({ ':path': path })
      let text = ''
      stream.setEncoding('utf8')
      stream.on('data', (d: string) => {
        text += d
      })
      stream.on('end', () => resolve(text))
      stream.on('error', reject)
    })
  const h1Get = () =>
    new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', agent: false, ...insecure }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => {
          text += d
        })
        res.on('end', () => resolve(text))
      })
      req.on('error', reject)
      req.end()
    })

  it('cuts off each kind of stalled client within its bound, serving others meanwhile', async () => {
    const tcp = watch(tcpConnect(port, '127.0.0.1'))
    const stalls = {
      'TLS, then nothing': await tlsClient(port, 'http/1.1'),
      'half a request line': await tlsClient(port, 'http/1.1'),
      'half the headers': await tlsClient(port, 'http/1.1'),
      'HTTP/2 preface, no HEADERS': await tlsClient(port, 'h2'),
      'HTTP/2 HEADERS, CONTINUATION never': await tlsClient(port, 'h2'),
    }
    stalls['half a request line'].socket.write('GET /sl')
    stalls['half the headers'].socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: te')
    stalls['HTTP/2 preface, no HEADERS'].socket.write(h2.preface)
    stalls['HTTP/2 HEADERS, CONTINUATION never'].socket.write(Buffer.concat([h2.preface, h2.halfRequest(1)]))

    // Meanwhile everyone else is served, over both protocols.
    const session = await h2Session()
    expect(await h2Get(session)).toBe('hello')
    expect(await h1Get()).toBe('hello')

    // A TCP connection that never starts TLS: the handshake's bound.
    const tcpMs = await tcp.closed
    expect(tcpMs).toBeGreaterThanOrEqual(bounds.handshakeMs - 50)
    expect(tcpMs).toBeLessThan(bounds.handshakeMs + slackMs)
    // The others: the headers' bound from the handshake, checked every `checkEveryMs`.
    for (const [name, client] of Object.entries(stalls)) {
      const ms = await client.closed
      expect(ms, name).toBeGreaterThanOrEqual(bounds.headersMs - 50)
      expect(ms, name).toBeLessThan(bounds.headersMs + bounds.checkEveryMs + slackMs)
      // HTTP/1.1 clients are told why, as the plain server tells them.
      if (!name.startsWith('HTTP/2')) expect(client.received(), name).toMatch(/^HTTP\/1\.1 408 /)
    }
    // The well-behaved session outlived them all.
    expect(await h2Get(session)).toBe('hello')
    session.close()
  })

  it('cuts off an HTTP/2 session whose later request stops mid-headers, before its idle bound', async () => {
    const client = await tlsClient(port, 'h2')
    client.socket.write(Buffer.concat([h2.preface, h2.request(1)]))
    await expect.poll(client.received).toContain('hello')
    await sleep(200)
    client.socket.write(h2.halfRequest(3))
    client.restart()
    const ms = await client.closed
    expect(ms).toBeGreaterThanOrEqual(bounds.headersMs - 50)
    expect(ms).toBeLessThan(bounds.headersMs + 2 * bounds.checkEveryMs + slackMs)
    expect(ms).toBeLessThan(bounds.idleMs)
  })

  it('keeps an HTTP/2 stream quiet past every bound, then closes the session once idle', async () => {
    const session = await h2Session()
    let closedAt = 0
    const closed = new Promise<void>((resolve) =>
      session.once('close', () => {
        closedAt = performance.now()
        resolve()
      }),
    )
    const goaway = new Promise<number>((resolve) => session.once('goaway', (code) => resolve(code)))
    expect(await h2Get(session, '/stream')).toBe('first,second')
    const idleFrom = performance.now()
    expect(session.closed || session.destroyed).toBe(false)
    await closed
    expect(await goaway).toBe(0) // NO_ERROR: a graceful close a browser reconnects after
    expect(closedAt - idleFrom).toBeGreaterThanOrEqual(bounds.idleMs - 50)
    expect(closedAt - idleFrom).toBeLessThan(bounds.idleMs + bounds.checkEveryMs + slackMs)
  })

  it('keeps an HTTP/1.1 request whose body streams with pauses past every bound', async () => {
    const answer = new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/count', agent: false, ...insecure },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (d: string) => {
            text += d
          })
          res.on('end', () => resolve(text))
        },
      )
      req.on('error', reject)
      req.flushHeaders()
      req.write('abc')
      setTimeout(() => req.end('de'), quietMs)
    })
    expect(await answer).toBe('5')
  })

  it('closes an idle HTTP/1.1 keep-alive connection after the idle bound', async () => {
    const client = await tlsClient(port, 'http/1.1')
    client.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await expect.poll(client.received).toContain('hello')
    client.restart()
    const ms = await client.closed
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /)
    expect(client.received()).not.toContain('408')
    expect(ms).toBeGreaterThanOrEqual(bounds.idleMs - 50)
    expect(ms).toBeLessThan(bounds.idleMs + slackMs)
  })

  it('advertises at most 250 concurrent streams, as Go’s servers do', async () => {
    const session = await h2Session()
    expect(session.remoteSettings.maxConcurrentStreams).toBe(250)
    session.close()
  })
})

describe('the stack’s bounds', () => {
  it('cut a stalled client off within 15 s and keep an idle connection as long as envd', () => {
    const { handshakeMs, headersMs, checkEveryMs, idleMs } = secureServerBounds
    expect(handshakeMs + headersMs + checkEveryMs).toBeLessThanOrEqual(15_000)
    expect(idleMs).toBe(640_000)
  })
})
