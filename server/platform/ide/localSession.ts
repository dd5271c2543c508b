import type { IncomingMessage } from 'node:http'
import type { SessionInfo } from '../../../src/contract/ideApiTypes'
import { envdPort } from '../../../src/contract/runtimeExtensions'
import { browserHost } from '../../http/browserHost'
import type { SandboxRecord } from '../sandboxRecord'
import { runtimePathPrefix } from '../sandboxRouter'

/**
 * How the browser reaches a local sandbox's runtime: through the platform's router by host name,
 * on the scheme and port the browser used for this request, so it works whichever loopback name
 * (or proxy port) the page was opened with; `*.localhost` always resolves to loopback, and a
 * page opened on the stack's `--domain` gets names under it (a wildcard DNS record). A page
 * opened by any other address (a bare IP on a network) has no names to give sandboxes, and
 * reaches the runtime on its own origin, at `/.sandbox/{id}` (the sandbox's ports then have no
 * address). Over HTTPS (`--tls`) the runtime is HTTP/2 too, where the browser can stream
 * keystrokes.
 */
/** `localhost` for a page on this machine by a loopback name, whose sandboxes are `*.localhost`. */
function loopbackParent(name: string): string | undefined {
  const loopback =
    name === 'localhost' || name.endsWith('.localhost') || name === '127.0.0.1' || name === '[::1]'
  return loopback ? 'localhost' : undefined
}

export function localSession(
  record: SandboxRecord,
  req: IncomingMessage,
  envdVersion: string,
  domain?: string,
): SessionInfo {
  const host = browserHost(req.headers.host)
  const port = host?.port
  const scheme = (req.socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http'
  const onPort = port ? `:${port}` : ''
  const parent = host && (domain === host.name ? domain : loopbackParent(host.name))
  return {
    source: 'local',
    sandboxId: record.sandboxID,
    state: record.state,
    runtimeUrl: parent
      ? `${scheme}://${envdPort}-${record.sandboxID}.${parent}${onPort}`
      : `${scheme}://${host?.name ?? 'localhost'}${onPort}${runtimePathPrefix}${record.sandboxID}`,
    accessToken: record.envdAccessToken,
    endAt: record.endAt,
    envdVersion,
    processesLost: record.processesLost ?? false,
  }
}
