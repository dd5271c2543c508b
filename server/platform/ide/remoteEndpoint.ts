import { PlatformError } from '../platformError'

/** E2B's own platform API. */
export const e2bApiUrl = 'https://api.e2b.app'

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Where an E2B-compatible API is and the domain its sandboxes live under. */
export interface RemoteEndpoint {
  /** Origin plus any path prefix, without a trailing slash, e.g. `https://api.e2b.app`. */
  apiUrl: string
  /** Sandbox hosts are `{port}-{sandboxID}.{domain}`, e.g. `e2b.app` or `localhost:8787`. */
  domain: string
}

/**
 * Checks an API URL and works out its sandbox domain when none is given: the API's host without
 * its `api.` label (api.e2b.app → e2b.app), or `localhost:{port}` for a stack on loopback, whose
 * router serves sandboxes under `*.localhost`. 400 for anything that is not a plain http(s) URL.
 */
export function remoteEndpoint(apiUrl = e2bApiUrl, domain?: string): RemoteEndpoint {
  let url: URL
  try {
    url = new URL(apiUrl)
  } catch {
    throw new PlatformError(400, `apiUrl is not a URL: '${apiUrl}'`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new PlatformError(400, `apiUrl must be an http or https URL, not ${url.protocol}`)
  if (url.username || url.password) throw new PlatformError(400, 'apiUrl must not hold credentials')
  if (url.search || url.hash) throw new PlatformError(400, 'apiUrl must not have a query or fragment')
  const loopback = loopbackNames.has(url.hostname)
  // The API key travels in a header: never in clear text across a network.
  if (url.protocol === 'http:' && !loopback)
    throw new PlatformError(400, 'apiUrl must use https (plain http only to a loopback address)')
  const port = url.port ? `:${url.port}` : ''
  return {
    apiUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}`,
    domain: (domain ?? (loopback ? `localhost${port}` : url.host.replace(/^api\./, ''))).toLowerCase(),
  }
}
