import type { SessionInfo } from '../../../src/contract/ideApiTypes'
import { envdPort } from '../../../src/contract/runtimeExtensions'
import { PlatformError } from '../platformError'
import type { RemoteSandboxDetail } from './e2bClient'
import { isE2bSandboxId } from './e2bSandboxId'
import { hostWithPort } from './ideSchemas'
import type { StoredRemote } from './remoteStore'

/**
 * How the browser reaches an E2B sandbox's runtime directly: `49983-{id}.{domain}`, with the
 * domain the API gives for the sandbox, else the remote's, on the API's own scheme.
 */
export function remoteSession(remote: StoredRemote, detail: RemoteSandboxDetail): SessionInfo {
  const domain = detail.domain || remote.domain
  // It becomes part of a URL the browser calls with the token: it must be just a host.
  if (!hostWithPort.test(domain) || !isE2bSandboxId(detail.sandboxID))
    throw new PlatformError(502, `the E2B API gave sandbox ${detail.sandboxID} an invalid id or domain`)
  const scheme = new URL(remote.apiUrl).protocol
  return {
    source: 'e2b',
    remoteId: remote.remoteId,
    sandboxId: detail.sandboxID,
    state: detail.state,
    runtimeUrl: `${scheme}//${envdPort}-${detail.sandboxID}.${domain.toLowerCase()}`,
    accessToken: detail.envdAccessToken ?? null,
    endAt: detail.endAt,
    envdVersion: detail.envdVersion,
  }
}
