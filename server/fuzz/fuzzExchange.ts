import { type Agent, request } from 'node:http'

/** One request of the fuzz suite, as it goes on the wire (over HTTP/1.1 to the stack's port). */
export interface FuzzRequest {
  /** Which server of the stack it is for, for the checks and the report. */
  target: 'platform' | 'ide' | 'runtime' | 'demo'
  method: string
  path: string
  headers: Record<string, string>
  body?: Buffer
  /** Carries a credential that lets it see a sandbox's access token (the key or the IDE token). */
  privileged: boolean
}

/** One line that names a request, its body cut short (bodies run to megabytes). */
export function showRequest(req: FuzzRequest): string {
  const body = req.body
    ? ` body ${req.body.length} bytes ${JSON.stringify(req.body.subarray(0, 80).toString('latin1'))}`
    : ''
  return `${req.target}: ${req.method} ${req.path.slice(0, 160)} ${JSON.stringify(req.headers).slice(0, 300)}${body}`
}

/** What came back; `error` when no answer did. */
export interface FuzzAnswer {
  status?: number
  headers: Record<string, string | string[] | undefined>
  /** At most `maxBodyBytes` of the body. */
  body: Buffer
  /** The body was longer than what was read (a stream, a large file): the socket was dropped. */
  cut: boolean
  ms: number
  error?: string
}

/** Most of an answer's body the suite reads; past it, the exchange drops its connection. */
export const maxBodyBytes = 256 * 1024

/**
 * Sends one request on `agent` (keep-alive, one socket: the next request reuses its connection)
 * and reads its answer, failing with `error` instead of waiting past `timeoutMs`. A streaming
 * answer is read for `streamMs` and then dropped, as a client that has seen enough.
 */
export function exchange(
  agent: Agent,
  port: number,
  req: Omit<FuzzRequest, 'target' | 'privileged'>,
  { timeoutMs, streamMs = 300 }: { timeoutMs: number; streamMs?: number },
): Promise<FuzzAnswer> {
  const started = performance.now()
  return new Promise((resolve) => {
    let settled = false
    const chunks: Buffer[] = []
    let size = 0
    let status: number | undefined
    let headers: FuzzAnswer['headers'] = {}
    const finish = (extra: Partial<FuzzAnswer> = {}) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({
        status,
        headers,
        body: Buffer.concat(chunks),
        cut: false,
        ms: performance.now() - started,
        ...extra,
      })
    }
    const outgoing = request({
      agent,
      host: '127.0.0.1',
      port,
      method: req.method,
      path: req.path,
      // Node frames no body of a GET or DELETE unless told its length: it would run into the next request.
      headers: req.body ? { 'Content-Length': String(req.body.length), ...req.headers } : req.headers,
      setHost: !('Host' in req.headers || 'host' in req.headers),
    })
    const timer = setTimeout(() => {
      outgoing.destroy()
      finish({ error: `no ${status === undefined ? 'answer' : 'end of the answer'} within ${timeoutMs} ms` })
    }, timeoutMs)
    outgoing.on('response', (res) => {
      status = res.statusCode
      headers = res.headers
      const streaming = /^application\/connect\+/.test(String(res.headers['content-type'] ?? ''))
      const drop = () => {
        res.destroy()
        outgoing.destroy()
        finish({ cut: true })
      }
      if (streaming) setTimeout(drop, streamMs).unref()
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size <= maxBodyBytes) chunks.push(chunk)
        else drop()
      })
      res.on('end', () => finish())
      res.on('error', (err) => finish({ error: `answer broke: ${err.message}` }))
    })
    outgoing.on('error', (err) => {
      // A server may answer early and close without reading a body it refused: the answer counts.
      if (status !== undefined) finish()
      else finish({ error: `no answer: ${err.message}` })
    })
    outgoing.end(req.body)
  })
}
