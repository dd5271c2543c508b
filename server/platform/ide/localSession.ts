import type { IncomingMessage } from 'node:http'
import type { SessionInfo } from '../../../src/contract/ideApiTypes'
import { envdPort } from '../../../src/contract/runtimeExtensions'
import type { SandboxRecord } from '../sandboxRecord'
import { browserHost } from './browserHost'

/**
 * How the browser reaches a local sandbox's runtime: through the platform's router by host name,
 * on the scheme and port the browser used for this request, so it works whichever loopback name
 * (or proxy port) the page was opened with; `*.localhost` always resolves to loopback, and a
 * page opened on the stack's `--domain` gets names under it (a wildcard DNS record). Over
 * HTTPS (`--tls`) the runtime is HTTP/2 too, where the browser can stream keystrokes.
 */
export function localSession(
  record: SandboxRecord,
  req: IncomingMessage,
  envdVersion: string,
  domain?: string,
): SessionInfo {
  const host = browserHost(req.headers.host)
  const port = host?.port
  const parent = domain !== undefined && host?.name === domain ? domain : 'localhost'
  const scheme = (req.socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http'
  return {
    source: 'local',
    sandboxId: record.sandboxID,
    state: record.state,
    runtimeUrl: `${scheme}://${envdPort}-${record.sandboxID}.${parent}${port ? `:${port}` : ''}`,
    accessToken: record.envdAccessToken,
    endAt: record.endAt,
    envdVersion,
    processesLost: record.processesLost ?? false,
  }
}
