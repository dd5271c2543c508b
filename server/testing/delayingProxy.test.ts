import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDelayingProxy } from './delayingProxy'

const body = Buffer.alloc(1_000_000, 'x')

describe('the delaying proxy', () => {
  const server = createServer((req, res) => {
    if (req.url === '/big') res.end(body)
    else res.end('ok')
  })
  let port = 0
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as { port: number }).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const timed = async (proxyPort: number, path: string) => {
    const started = performance.now()
    const res = await fetch(`http://127.0.0.1:${proxyPort}${path}`)
    const bytes = (await res.arrayBuffer()).byteLength
    return { bytes, ms: performance.now() - started }
  }

  it('adds its delay each way to every exchange', async () => {
    const proxy = await startDelayingProxy(port, 50)
    try {
      const { bytes, ms } = await timed(proxy.port, '/')
      expect(bytes).toBe(2)
      // The request there and the answer back: a round trip (the proxy itself accepts at once).
      expect(ms).toBeGreaterThanOrEqual(95)
    } finally {
      await proxy.close()
    }
  })

  it('delivers a large answer whole and no faster than its bandwidth', async () => {
    const proxy = await startDelayingProxy(port, 5, { bytesPerSecond: 2_000_000 })
    try {
      const { bytes, ms } = await timed(proxy.port, '/big')
      expect(bytes).toBe(body.length)
      // 1 MB at 2 MB/s.
      expect(ms).toBeGreaterThanOrEqual(495)
    } finally {
      await proxy.close()
    }
  })
})
