import type { IncomingMessage } from 'node:http'
import type { SandboxRecord } from '../sandboxRecord'
import { envdPort } from '../sandboxRouter'
import { browserHost } from './browserHost'

/**
 * How the browser reaches a local sandbox's runtime: through the platform's router by host name,
 * on the port the browser used for this request, so it works whichever loopback name (or proxy
 * port) the page was opened with; `*.localhost` always resolves to loopback.
 */
export function localSession(record: SandboxRecord, req: IncomingMessage, envdVersion: string) {
  const port = browserHost(req.headers.host)?.port
  return {
    source: 'local' as const,
    sandboxId: record.sandboxID,
    state: record.state,
    runtimeUrl: `http://${envdPort}-${record.sandboxID}.localhost${port ? `:${port}` : ''}`,
    accessToken: record.envdAccessToken,
    endAt: record.endAt,
    envdVersion,
    processesLost: record.processesLost ?? false,
  }
}
