// The router's HTTP tunnel at the byte level: a WebSocket client speaking the exchange of
// src/contract/httpTunnel.ts, against a real sandbox's runtime behind the router.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { httpTunnelEnd, httpTunnelProtocol } from '../../src/contract/httpTunnel'
import { StartRequestSchema, StartResponseSchema } from '../../src/gen/process_pb'
import { envelope, splitEnvelopes } from '../runtime/testing/wire'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'

interface TunnelAnswer {
  head: { status: number; headers: Record<string, string> } | undefined
  body: Buffer
  /** The body's binary messages, as they came. */
  messages: Buffer[]
  closeCode: number
  closeReason: string
}

/** Opens a tunnel to `path`, sends `first` (the head, or anything to test) and `body`, reads everything. */
function tunnel(
  { url, host }: { url: string; host: string },
  first: string | Buffer,
  body: (Buffer | string)[] = [],
  { onOpen }: { onOpen?: (ws: WebSocket) => void } = {},
): Promise<TunnelAnswer> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, [httpTunnelProtocol], { headers: { Host: host } })
    const answer: TunnelAnswer = {
      head: undefined,
      body: Buffer.alloc(0),
      messages: [],
      closeCode: 0,
      closeReason: '',
    }
    ws.on('open', () => {
      ws.send(first)
      for (const piece of body) ws.send(piece)
      onOpen?.(ws)
    })
    ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary && !answer.head) answer.head = JSON.parse(String(data))
      else answer.messages.push(data)
    })
    ws.on('close', (code, reason) => {
      answer.body = Buffer.concat(answer.messages)
      answer.closeCode = code
      answer.closeReason = String(reason)
      resolve(answer)
    })
    ws.on('error', reject)
  })
}

describe('HTTP tunnel to a sandbox runtime', () => {
  let tp: TestPlatform
  let id: string
  let token: string
  // Node resolves no `*.localhost` name: the socket goes to loopback, the name in Host, as a browser sends it.
  const url = (path: string, sandboxId = id) => ({
    url: `ws://127.0.0.1:${tp.platform.port}${path}`,
    host: `49983-${sandboxId}.localhost:${tp.platform.port}`,
  })
  const head = (headers: Record<string, string> = {}) =>
    JSON.stringify({
      method: 'POST',
      headers: { 'Content-Type': 'application/connect+json', 'X-Access-Token': token, ...headers },
    })

  beforeAll(async () => {
    tp = await startTestPlatform()
    const created = await tp.createSandbox()
    id = created.sandboxID
    token = created.envdAccessToken
  })
  afterAll(() => tp.close())

  it('carries a server stream: the runtime’s head, its envelopes as they are, then a clean close', async () => {
    const start = envelope(JSON.stringify({ process: { cmd: 'echo', args: ['through the tunnel'] } }))
    const answer = await tunnel(url('/process.Process/Start'), head(), [Buffer.from(start), httpTunnelEnd])
    expect(answer.head?.status).toBe(200)
    expect(answer.head?.headers['content-type']).toBe('application/connect+json')
    const envelopes = splitEnvelopes(new Uint8Array(answer.body))
    const stdout = envelopes
      .map((e) => e.json?.event?.data?.stdout)
      .filter(Boolean)
      .map((b64: string) => Buffer.from(b64, 'base64').toString())
      .join('')
    expect(stdout).toBe('through the tunnel\n')
    expect(envelopes.at(-1)?.flags).toBe(2)
    expect(answer.closeCode).toBe(1000)
  })

  it('carries a flood of a Connect stream in whole envelopes, each message ending where one does', async () => {
    const bytes = 3 * 1024 * 1024
    const start = envelope(
      JSON.stringify({ process: { cmd: 'head', args: ['-c', String(bytes), '/dev/zero'] } }),
    )
    const answer = await tunnel(
      url('/process.Process/Start'),
      head({ 'X-Output-Window': String(4 * 1024 * 1024) }),
      [Buffer.from(start), httpTunnelEnd],
    )
    expect(answer.closeCode).toBe(1000)
    // splitEnvelopes throws on a message that ends inside an envelope.
    const perMessage = answer.messages.map((message) => splitEnvelopes(new Uint8Array(message)))
    const stdout = perMessage
      .flat()
      .map((e) => e.json?.event?.data?.stdout)
      .filter(Boolean)
      .reduce((sum: number, b64: string) => sum + Buffer.from(b64, 'base64').length, 0)
    expect(stdout).toBe(bytes)
  })

  it('holds the process back while the client reads nothing, and loses nothing once it reads again', async () => {
    // More than the sockets between the process and the client hold (about 4 MiB on loopback).
    const bytes = 16 * 1024 * 1024
    const start = envelope(
      toBinary(
        StartRequestSchema,
        create(StartRequestSchema, { process: { cmd: 'head', args: ['-c', String(bytes), '/dev/zero'] } }),
      ),
    )
    /** Whether the flood's `head` is still running, asked through a tunnel of its own. */
    const floodRunning = async () => {
      const list = await tunnel(
        url('/process.Process/List'),
        JSON.stringify({
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Access-Token': token },
        }),
        [Buffer.from('{}'), httpTunnelEnd],
      )
      const { processes } = JSON.parse(String(list.body)) as { processes: { config: { cmd: string } }[] }
      return processes.some((p) => p.config.cmd === 'head')
    }
    let runningWhileUnread: boolean | undefined
    const answer = await tunnel(
      url('/process.Process/Start'),
      head({ 'Content-Type': 'application/connect+proto' }),
      [Buffer.from(start), httpTunnelEnd],
      {
        onOpen: (ws) => {
          ws.pause()
          // Read at once, the whole flood is through in a fraction of this here.
          setTimeout(async () => {
            runningWhileUnread = await floodRunning()
            ws.resume()
          }, 2000)
        },
      },
    )
    expect(runningWhileUnread).toBe(true)
    expect(answer.closeCode).toBe(1000)
    let output = 0
    for (const message of answer.messages) {
      // Each message holds whole envelopes: a data event's length comes from its own bytes.
      for (let at = 0; at < message.length; ) {
        const length = message.readUInt32BE(at + 1)
        expect(at + 5 + length).toBeLessThanOrEqual(message.length)
        if (message[at] === 0) {
          const { event } = fromBinary(StartResponseSchema, message.subarray(at + 5, at + 5 + length))
          if (event?.event.case === 'data') output += event.event.value.output.value?.length ?? 0
        }
        at += 5 + length
      }
    }
    expect(output).toBe(bytes)
  })

  it('carries a client stream sent in pieces: StreamInput reaches the process', async () => {
    const started = tunnel(url('/process.Process/Start'), head(), [
      Buffer.from(
        envelope(JSON.stringify({ process: { cmd: 'head', args: ['-n', '1'] }, tag: 'tunnelled' })),
      ),
      httpTunnelEnd,
    ])
    let pid: number | undefined
    for (let i = 0; i < 100 && pid === undefined; i++) {
      const listed = await tunnel(
        url('/process.Process/List'),
        head({ 'Content-Type': 'application/json' }),
        [Buffer.from('{}'), httpTunnelEnd],
      )
      const { processes } = JSON.parse(String(listed.body))
      pid = processes?.find((p: { tag?: string }) => p.tag === 'tunnelled')?.pid
      if (pid === undefined) await new Promise((r) => setTimeout(r, 50))
    }
    const pieces = [
      JSON.stringify({ start: { process: { pid } } }),
      JSON.stringify({ data: { input: { stdin: Buffer.from('typed in ').toString('base64') } } }),
      JSON.stringify({ data: { input: { stdin: Buffer.from('pieces\n').toString('base64') } } }),
    ].map((json) => Buffer.from(envelope(json)))
    const input = await tunnel(url('/process.Process/StreamInput'), head(), [...pieces, httpTunnelEnd])
    expect(input.head?.status).toBe(200)
    expect(splitEnvelopes(new Uint8Array(input.body)).map((e) => [e.flags, e.text])).toEqual([
      [0, '{}'],
      [2, '{}'],
    ])
    const output = splitEnvelopes(new Uint8Array((await started).body))
      .map((e) => e.json?.event?.data?.stdout)
      .filter(Boolean)
      .map((b64: string) => Buffer.from(b64, 'base64').toString())
      .join('')
    expect(output).toBe('typed in pieces\n')
  })

  it('passes the runtime’s own refusals through: a wrong token gets envd’s 401', async () => {
    const answer = await tunnel(url('/process.Process/List'), head({ 'X-Access-Token': 'forged' }), [
      Buffer.from('{}'),
      httpTunnelEnd,
    ])
    expect(answer.head?.status).toBe(401)
    expect(JSON.parse(String(answer.body)).code).toBe(401)
    expect(answer.closeCode).toBe(1000)
  })

  it('answers an unknown sandbox, or a hostile name in its place, with E2B’s 502 body', async () => {
    for (const sandboxId of ['inotreal0000000000000', '..%2f..', 'a_b', 'x'.repeat(300)]) {
      const answer = await tunnel(url('/process.Process/List', sandboxId), head(), [httpTunnelEnd])
      expect(answer.head?.status, sandboxId).toBe(502)
      expect(JSON.parse(String(answer.body))).toMatchObject({
        message: 'The sandbox was not found',
        code: 502,
      })
    }
  })

  it('leaves a WebSocket without the tunnel’s subprotocol to the runtime, which takes none', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${tp.platform.port}/process.Process/List`, {
        headers: { Host: `49983-${id}.localhost:${tp.platform.port}` },
      })
      ws.on('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`))
      ws.on('open', () => resolve('open'))
      ws.on('error', (err) => resolve(err.message))
    })
    expect(outcome).not.toBe('open')
  })

  it('closes with 1008 and a reason on a malformed head, and keeps serving', async () => {
    const cases: [string | Buffer, RegExp][] = [
      ['not json', /not JSON/],
      [Buffer.from(head()), /first message must be the request head/],
      [JSON.stringify({ method: 'DELETE', headers: {} }), /POST or GET/],
      [JSON.stringify({ method: 'POST', headers: { a: 1 } }), /must be a string/],
      [JSON.stringify({ method: 'POST', headers: {}, url: 'http://elsewhere' }), /unknown field.*url/],
      [JSON.stringify({ method: 'POST', headers: { 'Bad Name': 'x' } }), /header/i],
      [JSON.stringify({ method: 'POST', headers: { 'X-A': 'line\r\nInjected: yes' } }), /header/i],
    ]
    for (const [first, reason] of cases) {
      const answer = await tunnel(url('/process.Process/List'), first, [httpTunnelEnd])
      expect(answer.closeCode, String(first)).toBe(1008)
      expect(answer.closeReason, String(first)).toMatch(reason)
    }
    const after = await tunnel(url('/process.Process/List'), head({ 'Content-Type': 'application/json' }), [
      Buffer.from('{}'),
      httpTunnelEnd,
    ])
    expect(after.head?.status).toBe(200)
  })

  it('refuses a message beyond 1 MiB by closing the socket, and keeps serving', async () => {
    const answer = await tunnel(url('/process.Process/List'), head(), [Buffer.alloc(1024 * 1024 + 1)])
    expect(answer.closeCode).toBe(1009)
    const after = await tunnel(url('/process.Process/List'), head({ 'Content-Type': 'application/json' }), [
      Buffer.from('{}'),
      httpTunnelEnd,
    ])
    expect(after.head?.status).toBe(200)
  })

  it('breaks a tunnelled stream off when its sandbox is paused, so the client reconnects', async () => {
    const created = await tp.createSandbox()
    const other = created.sandboxID
    const stream = tunnel(
      url('/process.Process/Start', other),
      JSON.stringify({
        method: 'POST',
        headers: { 'Content-Type': 'application/connect+json', 'X-Access-Token': created.envdAccessToken },
      }),
      [Buffer.from(envelope(JSON.stringify({ process: { cmd: 'sleep', args: ['30'] } }))), httpTunnelEnd],
    )
    await new Promise((r) => setTimeout(r, 300))
    expect((await tp.api('POST', `/sandboxes/${other}/pause`)).status).toBe(204)
    const answer = await stream
    expect(answer.closeCode).not.toBe(1000)
  })

  it('ends open tunnels when the platform closes, which would otherwise keep it from closing', async () => {
    const own = await startTestPlatform()
    const created = await own.createSandbox()
    const stream = tunnel(
      {
        url: `ws://127.0.0.1:${own.platform.port}/process.Process/Start`,
        host: `49983-${created.sandboxID}.localhost:${own.platform.port}`,
      },
      JSON.stringify({
        method: 'POST',
        headers: { 'Content-Type': 'application/connect+json', 'X-Access-Token': created.envdAccessToken },
      }),
      [Buffer.from(envelope(JSON.stringify({ process: { cmd: 'sleep', args: ['30'] } }))), httpTunnelEnd],
    )
    await new Promise((r) => setTimeout(r, 300))
    await own.close()
    expect((await stream).closeCode).not.toBe(1000)
  })
})
