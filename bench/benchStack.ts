// What the browser benches share: a platform with long sandbox lives, and built pages served
// in front of it on its own origin, so they reach /ide/api and the sandboxes as the IDE does.
import type { RequestListener } from 'node:http'
import sirv from 'sirv'
import type { PlatformConfig } from '../server/config'
import type { RunningPlatform } from '../server/platform/platformServer'
import { startTestPlatform, type TestPlatform } from '../server/platform/testing/platformFixture'

/** A platform for a browser bench: sandboxes outlive the longest run. */
export function startBenchPlatform(overrides: Partial<PlatformConfig> = {}): Promise<TestPlatform> {
  return startTestPlatform({
    apiKey: 'bench',
    maxSandboxes: 2,
    sandboxTimeout: 1800,
    defaultSandboxTimeout: 1800,
    ...overrides,
  })
}

/**
 * Serves files of `dir` on the platform's own loopback host for the requests `pick` claims (it
 * returns the path to serve, or undefined to leave the request to the platform).
 */
export function serveInFront(
  platform: RunningPlatform,
  dir: string,
  pick: (url: string) => string | undefined,
  { single = false } = {},
): void {
  const files = sirv(dir, { dev: false, etag: true, single })
  const [platformHandler] = platform.server.listeners('request') as RequestListener[]
  if (!platformHandler) throw new Error('the platform server has no request handler')
  platform.server.removeAllListeners('request')
  platform.server.on('request', (req, res) => {
    // HTTP/2 (a --tls stack) names the host in `:authority`.
    const host = req.headers.host ?? req.headers[':authority']
    // The platform's own origin, or a proxy's in front of it (another port): not a sandbox's host.
    const path = host?.startsWith('127.0.0.1:') ? pick(req.url ?? '/') : undefined
    if (path === undefined) return platformHandler(req, res)
    req.url = path
    files(req, res, () => res.writeHead(404).end())
  })
}
