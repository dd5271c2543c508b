// The platform over HTTPS (--tls): HTTP/2 and HTTP/1.1 on one port, the same handler behind
// both, and the router carrying a real runtime's client stream (StreamInput) over HTTP/2.
import { type ClientHttp2Session, type ClientHttp2Stream, connect } from 'node:http2'
import { request } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Envelope, envelope, splitEnvelopes } from '../../runtime/testing/wire'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'

// The certificate is self-signed and Node refuses `*.localhost` anyway: these tests check
// protocols, not trust (localCertificate.test.ts checks the certificate).
const insecure = { rejectUnauthorized: false }

/** Collects an HTTP/2 response: status, headers, and the body's envelopes as they arrive. */
function h2Exchange(stream: ClientHttp2Stream) {
  let buffered = Buffer.alloc(0)
  const waiters: (() => void)[] = []
  const response = new Promise<Record<string, string | string[] | number | undefined>>((resolve, reject) => {
    stream.once('response', resolve)
    stream.once('error', reject)
  })
  stream.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    for (const wake of waiters.splice(0)) wake()
  })
  const ended = new Promise<void>((resolve) => stream.once('end', resolve))
  return {
    response,
    text: () => buffered.toString(),
    /** Complete envelopes so far. */
    envelopes(): Envelope[] {
      const view = new DataView(buffered.buffer, buffered.byteOffset, buffered.byteLength)
      let end = 0
      while (end + 5 <= buffered.length && end + 5 + view.getUint32(end + 1) <= buffered.length) {
        end += 5 + view.getUint32(end + 1)
      }
      return splitEnvelopes(new Uint8Array(buffered.subarray(0, end)))
    },
    /** Waits until `check` holds for what arrived (or the stream ends). */
    async until(check: () => boolean): Promise<void> {
      while (!check()) {
        const more = new Promise<void>((resolve) => waiters.push(resolve))
        await Promise.race([more, ended])
        if (stream.readableEnded && !check()) throw new Error(`stream ended early: ${buffered.toString()}`)
      }
    },
    ended,
  }
}

/** An HTTP/1.1-over-TLS request; returns status, headers, body text. */
function h1(port: number, options: { method?: string; path: string; headers?: Record<string, string> }) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string; alpn: unknown }>(
    (resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: options.method ?? 'GET',
          path: options.path,
          headers: options.headers,
          ...insecure,
        },
        (res) => {
          const chunks: Buffer[] = []
          const alpn = (res.socket as { alpnProtocol?: unknown }).alpnProtocol
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString(),
              alpn,
            }),
          )
        },
      )
      req.on('error', reject)
      req.end()
    },
  )
}

describe('platform over HTTPS with HTTP/2', () => {
  let tp: TestPlatform
  let session: ClientHttp2Session
  let id: string
  let token: string
  let runtimeHost: string

  beforeAll(async () => {
    tp = await startTestPlatform({ tls: true })
    session = connect(tp.url, insecure)
    const createStream = session.request({
      ':method': 'POST',
      ':path': '/v2/sandboxes',
      'x-api-key': tp.apiKey,
      'content-type': 'application/json',
    })
    const created = h2Exchange(createStream)
    createStream.end('{}')
    expect((await created.response)[':status']).toBe(201)
    await created.ended
    const body = JSON.parse(created.text())
    id = body.sandboxID
    token = body.envdAccessToken
    runtimeHost = `49983-${id}.localhost:${tp.platform.port}`
  })
  afterAll(async () => {
    session?.close()
    await tp.close()
  })

  it('answers on https, with HTTP/2 by ALPN and HTTP/1.1 for clients that ask for it', async () => {
    expect(tp.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(session.alpnProtocol).toBe('h2')
    // As Go's servers (issue 45); slowClients.test.ts has the server's bounds.
    expect(session.remoteSettings.maxConcurrentStreams).toBe(250)
    const viaH1 = await h1(tp.platform.port, {
      path: `/sandboxes/${id}`,
      headers: { 'X-API-Key': tp.apiKey },
    })
    expect(viaH1.alpn).toBe(false)
    expect(viaH1.status).toBe(200)
    expect(JSON.parse(viaH1.text).sandboxID).toBe(id)
  })

  it('gives the IDE an https runtime URL over both protocols', async () => {
    const ideHeaders = {
      'x-sandbox-ide': '1',
      'sec-fetch-site': 'same-origin',
      authorization: `Bearer ${tp.platform.ideToken.current()}`,
    }
    const viaH2 = h2Exchange(
      session.request({
        ':path': `/ide/api/sandboxes/${id}/session`,
        ':authority': `localhost:${tp.platform.port}`,
        ...ideHeaders,
      }),
    )
    expect((await viaH2.response)[':status']).toBe(200)
    await viaH2.ended
    expect(JSON.parse(viaH2.text()).runtimeUrl).toBe(`https://${runtimeHost}`)
    const viaH1 = await h1(tp.platform.port, {
      path: `/ide/api/sandboxes/${id}/session`,
      headers: { Host: `localhost:${tp.platform.port}`, ...ideHeaders },
    })
    expect(JSON.parse(viaH1.text).runtimeUrl).toBe(`https://${runtimeHost}`)
  })

  it('signs a browser in with a cookie sent over HTTPS only', async () => {
    const request = session.request(
      {
        ':method': 'POST',
        ':path': '/ide/api/auth',
        ':authority': `localhost:${tp.platform.port}`,
        'content-type': 'application/json',
        'x-sandbox-ide': '1',
        'sec-fetch-site': 'same-origin',
      },
      { endStream: false },
    )
    const signIn = h2Exchange(request)
    request.end(JSON.stringify({ token: tp.platform.ideToken.current() }))
    const headers = await signIn.response
    expect(headers[':status']).toBe(200)
    expect(String(headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Strict; Secure$/)
  })

  it('answers a browser’s CORS preflight for StreamInput through the router', async () => {
    const request = session.request(
      {
        ':method': 'OPTIONS',
        ':path': '/process.Process/StreamInput',
        ':authority': runtimeHost,
        origin: `https://127.0.0.1:${tp.platform.port}`,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'connect-protocol-version,content-type,x-access-token',
      },
      { endStream: true },
    )
    const preflight = h2Exchange(request)
    const headers = await preflight.response
    expect(headers[':status']).toBe(204)
    expect(headers['access-control-allow-headers']).toContain('x-access-token')
    expect(headers['access-control-max-age']).toBe('7200')
  })

  it('carries StreamInput over HTTP/2 to a real process as it is written, and answers {} at the end', async () => {
    // A PTY running cat: what StreamInput types comes back in Start's output (echo and cat).
    const startBody = envelope(
      JSON.stringify({ process: { cmd: '/bin/cat' }, pty: { size: { cols: 80, rows: 24 } } }),
    )
    const startStream = session.request({
      ':method': 'POST',
      ':path': '/process.Process/Start',
      ':authority': runtimeHost,
      'content-type': 'application/connect+json',
      'x-access-token': token,
    })
    const output = h2Exchange(startStream)
    startStream.end(startBody)
    expect((await output.response)[':status']).toBe(200)
    await output.until(() => output.envelopes().some((e) => e.json?.event?.start))
    const pid = output.envelopes().find((e) => e.json?.event?.start)?.json.event.start.pid as number
    const typed = () =>
      output
        .envelopes()
        .map((e) => (e.json?.event?.data?.pty ? Buffer.from(e.json.event.data.pty, 'base64').toString() : ''))
        .join('')

    const input = session.request({
      ':method': 'POST',
      ':path': '/process.Process/StreamInput',
      ':authority': runtimeHost,
      'content-type': 'application/connect+json',
      'connect-protocol-version': '1',
      'x-access-token': token,
    })
    const answer = h2Exchange(input)
    const data = (text: string) =>
      envelope(JSON.stringify({ data: { input: { pty: Buffer.from(text).toString('base64') } } }))
    input.write(envelope(JSON.stringify({ start: { process: { pid } } })))
    input.write(data('hello-'))
    // Reaches the process while the request is still open: nothing on the way buffers it.
    await output.until(() => typed().includes('hello-'))
    // A quiet spell and a keepalive (ignored) leave the call open for more.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    input.write(envelope(JSON.stringify({ keepalive: {} })))
    input.write(data('world\r'))
    await output.until(() => typed().includes('hello-world\r\nhello-world'))
    input.end()
    expect((await answer.response)[':status']).toBe(200)
    expect((await answer.response)['content-type']).toBe('application/connect+json')
    await answer.ended
    expect(answer.envelopes().map((e) => [e.flags, e.text])).toEqual([
      [0, '{}'],
      [2, '{}'],
    ])
    startStream.close()
  })

  it('ends StreamInput with the runtime’s Connect error for an unknown process', async () => {
    const input = session.request({
      ':method': 'POST',
      ':path': '/process.Process/StreamInput',
      ':authority': runtimeHost,
      'content-type': 'application/connect+json',
      'x-access-token': token,
    })
    const answer = h2Exchange(input)
    input.end(envelope(JSON.stringify({ start: { process: { pid: 999999 } } })))
    await answer.ended
    const end = answer.envelopes().at(-1)
    expect(end?.flags).toBe(2)
    expect(end?.json.error.code).toBe('not_found')
  })

  it('drops open HTTP/2 connections when it stops', async () => {
    const other = await startTestPlatform({ tls: true })
    const client = connect(other.url, insecure)
    client.on('error', () => {}) // the reset is the point
    await new Promise<void>((resolve) => client.once('connect', () => resolve()))
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()))
    const started = Date.now()
    await other.close()
    await closed
    expect(Date.now() - started).toBeLessThan(5000)
  })
})
