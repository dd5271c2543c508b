import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import { browserHost } from '../../http/browserHost'
import { PlatformError } from '../platformError'

/** The header every IDE API request carries; a custom header forces a CORS preflight. */
export const ideHeader = 'x-sandbox-ide'

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Refuses (403) a request that a page of another site could have sent. The Host check defeats
 * DNS rebinding (an attacker's name that resolves to 127.0.0.1 still sends its own Host); the
 * custom header cannot be sent cross-origin without a preflight, which the IDE API never
 * answers with CORS; `Sec-Fetch-Site` lets a modern browser say where the request came from.
 */
export function guardIdeRequest(req: IncomingMessage, configuredHost: string, domain?: string): void {
  const host = browserHost(req.headers.host)
  const configured = configuredHost.includes(':') ? `[${configuredHost}]` : configuredHost
  // A stack on every address (0.0.0.0, ::) is reached by whichever of its addresses a student's
  // machine can route to; an address cannot be rebound the way a name can.
  const anyAddress = configuredHost === '0.0.0.0' || configuredHost === '::'
  const known = (name: string) =>
    loopbackNames.has(name) ||
    name === configured.toLowerCase() ||
    name === domain ||
    (anyAddress && isIP(name.replace(/^\[(.*)\]$/, '$1')) !== 0)
  if (!host || !known(host.name)) {
    throw new PlatformError(
      403,
      'the IDE API answers only on a loopback host name (localhost, 127.0.0.1, [::1]), the configured --host or --domain (or any address of a stack on 0.0.0.0)',
    )
  }
  const site = req.headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new PlatformError(403, `the IDE API refuses requests from other sites (Sec-Fetch-Site: ${site})`)
  }
  if (req.headers[ideHeader] !== '1') {
    throw new PlatformError(403, 'the IDE API needs the request header X-Sandbox-IDE: 1')
  }
}
