// The page's end of the HTTP tunnel (src/api/tunnelFetch.ts), with the IDE's own stream readers,
// against a real router and runtime. Node 20 has no WebSocket of its own: `ws`'s stands in for
// the browser's, with every name resolved to loopback as browsers do for `*.localhost`.
import type { LookupFunction } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startTestPlatform, type TestPlatform } from '../../server/platform/testing/platformFixture'
import { readProcessStream } from './processStream'
import { openStreamInput } from './streamInputTransport'
import { createTunnelFetch } from './tunnelFetch'

const toLoopback: LookupFunction = (_host, options, done) =>
  options.all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4)

class LoopbackWebSocket extends WebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols, { lookup: toLoopback })
  }
}

const decoder = new TextDecoder()

describe('tunnelFetch against the router', () => {
  let tp: TestPlatform
  let untunnelled: TestPlatform
  const browserWebSocket = globalThis.WebSocket
  const sandboxOn = async (platform: TestPlatform) => {
    const created = await platform.createSandbox()
    return {
      runtimeUrl: `http://49983-${created.sandboxID}.localhost:${platform.platform.port}`,
      accessToken: created.envdAccessToken as string,
    }
  }

  beforeAll(async () => {
    globalThis.WebSocket = LoopbackWebSocket as unknown as typeof globalThis.WebSocket
    ;[tp, untunnelled] = await Promise.all([startTestPlatform(), startTestPlatform({ noHttpTunnel: true })])
  })
  afterAll(async () => {
    globalThis.WebSocket = browserWebSocket
    await Promise.all([tp.close(), untunnelled.close()])
  })

  it('reads a process’s output stream and streams its input, as the terminal does', async () => {
    const endpoint = { ...(await sandboxOn(tp)), streamFetch: createTunnelFetch() }
    let output = ''
    let pid: number | undefined
    const abort = new AbortController()
    const stream = readProcessStream(
      endpoint,
      {
        method: 'Start',
        message: { process: { cmd: 'head', args: ['-n', '1'] }, pty: { size: { cols: 80, rows: 24 } } },
      },
      {
        signal: abort.signal,
        room: async () => {},
        onEvent: (event) => {
          if (event.event.case === 'start') pid = event.event.value.pid
          if (event.event.case === 'data' && event.event.value.output.case === 'pty')
            output += decoder.decode(event.event.value.output.value)
        },
      },
    )
    await expect.poll(() => pid).toBeDefined()
    const input = openStreamInput({ ...endpoint, pid: pid as number })
    input.write(new TextEncoder().encode('one key '))
    input.write(new TextEncoder().encode('at a time\n'))
    await input.finish()
    await stream
    // The terminal's echo of the line, then head's copy of it.
    expect(output).toBe('one key at a time\r\none key at a time\r\n')
  })

  it('gives a stream’s abort to its reader, as fetch does', async () => {
    const endpoint = { ...(await sandboxOn(tp)), streamFetch: createTunnelFetch() }
    const abort = new AbortController()
    let started = false
    const stream = readProcessStream(
      endpoint,
      { method: 'Start', message: { process: { cmd: 'sleep', args: ['30'] } } },
      {
        signal: abort.signal,
        room: async () => {},
        onEvent: () => {
          started = true
        },
      },
    )
    await expect.poll(() => started).toBe(true)
    abort.abort()
    await expect(stream).rejects.toThrow(/closed/)
  })

  it('answers a refused tunnel by plain fetch, and a streamed body over plain HTTP as fetch would: a TypeError', async () => {
    const endpoint = await sandboxOn(untunnelled)
    const byFetch: string[] = []
    const tunnelFetch = createTunnelFetch(
      async (input) => {
        byFetch.push(String(input))
        return new Response('{}', { status: 200 })
      },
      () => true,
    )
    const answer = await tunnelFetch(`${endpoint.runtimeUrl}/process.Process/List`, {
      method: 'POST',
      body: '{}',
    })
    expect(await answer.text()).toBe('{}')
    expect(byFetch).toEqual([`${endpoint.runtimeUrl}/process.Process/List`])
    const streamed = tunnelFetch(`${endpoint.runtimeUrl}/process.Process/StreamInput`, {
      method: 'POST',
      body: new ReadableStream(),
    })
    await expect(streamed).rejects.toThrow(TypeError)
    expect(byFetch).toHaveLength(1)
  })
})
