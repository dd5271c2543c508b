// The runtime's /files endpoint from the browser: the access token always travels in a header,
// never in a URL; a link the browser opens, and a read, carry a short-lived signature instead.
import { downloadParam } from '../contract/runtimeExtensions'

/** Where a runtime is and how to authenticate to it. */
export interface RuntimeEndpoint {
  runtimeUrl: string
  accessToken: string | null
  /**
   * How long-lived calls (streams, StreamInput) travel when not by the page's fetch: the local
   * stack's HTTP tunnel (api/tunnelFetch.ts), which streams a request body in every browser.
   */
  streamFetch?: typeof fetch
  /** The runtime is this project's: it honours src/contract/runtimeExtensions.ts (envd ignores them). */
  extensions?: boolean
}

const fileUrl = (endpoint: RuntimeEndpoint, path: string) =>
  `${endpoint.runtimeUrl}/files?${new URLSearchParams({ path })}`

const authHeaders = (endpoint: RuntimeEndpoint): Record<string, string> =>
  endpoint.accessToken ? { 'X-Access-Token': endpoint.accessToken } : {}

/** A failed /files call with the runtime's own message. */
export class FilesError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

async function failure(res: Response): Promise<FilesError> {
  const text = await res.text()
  try {
    const body = JSON.parse(text) as { message?: string }
    return new FilesError(res.status, body.message ?? text)
  } catch {
    return new FilesError(res.status, text || `HTTP ${res.status}`)
  }
}

/** Runtimes whose signatures failed (a page's clock far from the sandbox's, an envd without them). */
const signaturesRefused = new Set<string>()

/**
 * Reads a file's bytes. Where it can, by a signed URL: a GET with no header of its own needs no
 * CORS preflight, and Chromium sends one before every no-store request (it skips its preflight
 * cache for them), a whole round trip more to a distant sandbox, and twice the calls for the port
 * watch's look every half second. A runtime that refuses the signature gets the header instead.
 */
export async function readFile(
  endpoint: RuntimeEndpoint,
  path: string,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const init: RequestInit = { cache: 'no-store', ...(signal ? { signal } : {}) }
  const signed = signaturesRefused.has(endpoint.runtimeUrl)
    ? undefined
    : await signedFileUrl(endpoint, path, readLinkSeconds)
  let res = signed ? await fetch(signed, init) : undefined
  if (!res || res.status === 401) {
    const byHeader = await fetch(fileUrl(endpoint, path), { ...init, headers: authHeaders(endpoint) })
    // The token is good where the signature made with it was not: this runtime will not take them.
    if (res && byHeader.status !== 401) signaturesRefused.add(endpoint.runtimeUrl)
    res = byHeader
  }
  if (!res.ok) throw await failure(res)
  return new Uint8Array(await res.arrayBuffer())
}

/** How long a save link works: long enough for a browser to start the download, and no more. */
export const saveLinkSeconds = 300
/** How long a signed read works: it is fetched at once; the margin is for the two machines' clocks. */
const readLinkSeconds = 120

/** Unpadded standard base64, as envd's signatures are written. */
function base64(bytes: ArrayBuffer): string {
  let binary = ''
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/=+$/, '')
}

/**
 * A /files URL that reads `path` without the token: signed as envd signs them (the SDK's
 * `downloadUrl`: "v1_" and SHA-256 over `path:read:username:token:expiration`), valid for
 * `seconds`. Unsigned where the runtime has no token; undefined where the page cannot sign (plain
 * http on a network address is not a secure context, so it has no WebCrypto).
 */
async function signedFileUrl(
  endpoint: RuntimeEndpoint,
  path: string,
  seconds: number,
  extra: Record<string, string> = {},
): Promise<string | undefined> {
  const query = new URLSearchParams({ path, ...extra })
  if (endpoint.accessToken) {
    const subtle = globalThis.crypto?.subtle
    if (!subtle) return undefined
    const expiration = Math.floor(Date.now() / 1000) + seconds
    const signed = `${path}:read::${endpoint.accessToken}:${expiration}`
    const digest = await subtle.digest('SHA-256', new TextEncoder().encode(signed))
    query.set('signature', `v1_${base64(digest)}`)
    query.set('signature_expiration', String(expiration))
  }
  return `${endpoint.runtimeUrl}/files?${query}`
}

/**
 * A link that saves `path` to disk when the browser opens it: signed, valid for
 * `saveLinkSeconds`, with `download=1` so the runtime answers `attachment`. The browser streams
 * the file to disk; the page never holds it. Undefined where it cannot work: a runtime that is not
 * ours (envd answers `inline`, and a browser would show the file instead), or a page that cannot sign.
 */
export async function saveLink(endpoint: RuntimeEndpoint, path: string): Promise<string | undefined> {
  if (!endpoint.extensions) return undefined
  return signedFileUrl(endpoint, path, saveLinkSeconds, { [downloadParam]: '1' })
}

/** Writes a whole file (creating its folders), as one request. */
export async function writeFile(
  endpoint: RuntimeEndpoint,
  path: string,
  data: Uint8Array<ArrayBuffer> | Blob,
): Promise<void> {
  const res = await fetch(fileUrl(endpoint, path), {
    method: 'POST',
    headers: { ...authHeaders(endpoint), 'Content-Type': 'application/octet-stream' },
    body: data,
  })
  if (!res.ok) throw await failure(res)
}

/**
 * Uploads a file with progress and cancel (XMLHttpRequest: fetch has no upload progress).
 * The runtime writes it aside and renames it into place, so a cancelled upload leaves nothing.
 */
export function uploadFile(
  endpoint: RuntimeEndpoint,
  path: string,
  file: Blob,
  onProgress: (sent: number, total: number) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', fileUrl(endpoint, path))
    for (const [name, value] of Object.entries(authHeaders(endpoint))) xhr.setRequestHeader(name, value)
    xhr.setRequestHeader('Content-Type', 'application/octet-stream')
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total)
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve()
      else {
        let message = xhr.responseText
        try {
          message = (JSON.parse(xhr.responseText) as { message?: string }).message ?? message
        } catch {}
        reject(new FilesError(xhr.status, message))
      }
    }
    xhr.onerror = () => reject(new FilesError(0, 'the upload failed: the sandbox did not answer'))
    xhr.onabort = () => reject(new DOMException('the upload was cancelled', 'AbortError'))
    signal.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(file)
  })
}
