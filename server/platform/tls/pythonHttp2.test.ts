// The --tls stack as E2B's Python SDK meets it: Python's HTTP/2 client (Debian's python3-httpx
// and python3-h2, installed by `node scripts/ensure.mjs test`) makes a unary call while a Start
// stream and a WatchDir stream are open on the same connection, and h2 reads the 250 concurrent
// streams a Go server (envd, E2B's edge) advertises. The httpcore the SDK pins (1.x) opens one
// stream per connection until the server advertises its limit, so without it every call made
// while a stream is open waited for ever; Debian's (0.16) predates that, hence the SETTINGS check.
import { execFile, execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform } from '../testing/platformFixture'

const script = join(import.meta.dirname, '..', 'testing', 'http2Streams.py')
// Debian's own Python, whose packages ensure.mjs installs (a python3 earlier on PATH may be another).
const python = '/usr/bin/python3'

function pythonHttp2Missing(): string | undefined {
  try {
    execFileSync(python, ['-c', 'import httpx, h2'], { stdio: 'pipe' })
    return undefined
  } catch (err) {
    return `python3 with httpx and h2 is needed (node scripts/ensure.mjs test installs python3-httpx and python3-h2): ${String(err)}`
  }
}

describe('the --tls stack from Python over HTTP/2 (httpx, h2)', () => {
  let tp: TestPlatform

  beforeAll(async () => {
    const missing = pythonHttp2Missing()
    if (missing) throw new Error(missing)
    tp = await startTestPlatform({ tls: true })
  }, 60_000)
  afterAll(async () => {
    await tp?.close()
  })

  it('answers a unary call while a Start stream and a WatchDir stream are open on the same connection', async () => {
    const { stdout } = await promisify(execFile)(python, [script, tp.url, tp.apiKey], { timeout: 30_000 })
    const result = JSON.parse(stdout)
    expect(result.settings).toMatchObject({ MAX_CONCURRENT_STREAMS: 250 })
    expect(result.start).toMatchObject({
      status: 200,
      httpVersion: 'HTTP/2',
      first: { event: { start: {} } },
    })
    expect(result.start.first.event.start.pid).toBeGreaterThan(0)
    expect(result.watch).toMatchObject({ status: 200, httpVersion: 'HTTP/2', first: { start: {} } })
    expect(result.stat).toMatchObject({
      status: 200,
      httpVersion: 'HTTP/2',
      body: { entry: { name: 'user', type: 'FILE_TYPE_DIRECTORY', path: '/home/user' } },
    })
    // One connection: after the create (stream 1), its streams are numbered in the order they opened.
    expect([result.start.streamId, result.watch.streamId, result.stat.streamId]).toEqual([3, 5, 7])
    expect(result.streamsStillOpen).toBe(true)
  })
})
