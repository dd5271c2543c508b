import {
  type HttpTunnelResponseHead,
  httpTunnelEnd,
  httpTunnelProtocol,
  tunnelClose,
} from '../contract/httpTunnel'
import { supportsRequestStreams } from './streamInputTransport'

/** Statuses a Response may not carry a body with. */
const bodiless = new Set([101, 103, 204, 205, 304])
/** After the tunnel could not be opened, calls use plain fetch for this long before trying again. */
const retryTunnelAfterMs = 30_000

/** What fetch would reject with for a network failure, so callers treat both alike. */
const networkError = (why: string) => new TypeError(`Failed to fetch (tunnel: ${why})`)

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError')
}

/** Sends a request body of any kind fetch takes from us (bytes, text or a stream), then `end`. */
async function sendBody(ws: WebSocket, body: RequestInit['body']): Promise<void> {
  if (body instanceof ReadableStream) {
    const reader = (body as ReadableStream<Uint8Array>).getReader()
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done || ws.readyState !== WebSocket.OPEN) break
        ws.send(value as Uint8Array<ArrayBuffer>)
      }
    } finally {
      reader.releaseLock()
    }
  } else if (typeof body === 'string') {
    ws.send(new TextEncoder().encode(body))
  } else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    ws.send(body)
  } else if (body != null) {
    throw new TypeError('the tunnel sends bytes, text or a stream as a request body')
  }
  if (ws.readyState === WebSocket.OPEN) ws.send(httpTunnelEnd)
}

/**
 * One call over the router's HTTP tunnel (src/contract/httpTunnel.ts), answered as fetch answers:
 * a Response whose body streams as the messages arrive. Rejects with `opened: false` when the
 * socket never opened (no tunnel there), so the caller can fall back before any byte went out.
 */
function tunnelCall(input: string, init: RequestInit): Promise<Response> {
  const url = new URL(input)
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  const signal = init.signal ?? undefined
  if (signal?.aborted) return Promise.reject(abortReason(signal))
  return new Promise<Response>((resolve, reject) => {
    const ws = new WebSocket(url, [httpTunnelProtocol])
    ws.binaryType = 'arraybuffer'
    let opened = false
    let body: ReadableStreamDefaultController<Uint8Array> | undefined
    let answered = false
    const fail = (err: unknown) => {
      if (!answered) reject(err)
      else
        try {
          body?.error(err)
        } catch {
          // the reader already let go
        }
    }
    const onAbort = () => {
      fail(abortReason(signal as AbortSignal))
      ws.close(tunnelClose.done)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    ws.onopen = () => {
      opened = true
      const headers = Object.fromEntries(new Headers(init.headers).entries())
      ws.send(JSON.stringify({ method: init.method ?? 'GET', headers }))
      sendBody(ws, init.body).catch((err) => {
        fail(err)
        ws.close(tunnelClose.done)
      })
    }
    ws.onmessage = ({ data }: MessageEvent<ArrayBuffer | string>) => {
      if (answered) {
        if (typeof data !== 'string') body?.enqueue(new Uint8Array(data))
        return
      }
      if (typeof data !== 'string') return fail(networkError('the answer came without its head'))
      answered = true
      const head = JSON.parse(data) as HttpTunnelResponseHead
      const stream = bodiless.has(head.status)
        ? null
        : new ReadableStream<Uint8Array>({
            start: (controller) => {
              body = controller
            },
            cancel: () => ws.close(tunnelClose.done),
          })
      resolve(new Response(stream, { status: head.status, headers: head.headers }))
    }
    // A close always follows an error, and says more.
    ws.onerror = () => {}
    ws.onclose = ({ code, reason }) => {
      signal?.removeEventListener('abort', onAbort)
      if (!opened) return reject(Object.assign(networkError('it could not be opened'), { opened: false }))
      if (code === tunnelClose.done && answered) {
        try {
          body?.close()
        } catch {
          // cancelled by its reader, or errored by an abort
        }
        return
      }
      // 1001: the browser closed it because the page is going away (a reload, a navigation),
      // as it aborts the page's fetches; the call did not fail, so nothing may be retried.
      if (code === tunnelClose.goingAway)
        return fail(new DOMException('the page is going away', 'AbortError'))
      fail(networkError(reason || `closed with ${code}`))
    }
  })
}

/**
 * A fetch for long-lived calls to the local stack's runtimes: over the router's HTTP tunnel,
 * where a request body streams in every browser and over plain HTTP/1.1 (a keystroke is one
 * frame), and streams hold none of the six connections per host. Where the tunnel cannot be
 * opened (a stack without it, a proxy that drops WebSockets) calls go by `fallback` for a while.
 */
export function createTunnelFetch(
  fallback: typeof fetch = globalThis.fetch.bind(globalThis),
  canStreamBodies: () => boolean = supportsRequestStreams,
): typeof fetch {
  let fallBackUntil = 0
  const tunnelFetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input)
    if (Date.now() >= fallBackUntil) {
      try {
        return await tunnelCall(url, init)
      } catch (err) {
        if ((err as { opened?: boolean }).opened !== false) throw err
        fallBackUntil = Date.now() + retryTunnelAfterMs
      }
    }
    // A browser streams a request body only over HTTP/2 (so TLS), and some not at all; one that
    // cannot would send the text "[object ReadableStream]" instead. Fail as Chromium's fetch does.
    const streamed = init.body instanceof ReadableStream
    if (streamed && !(new URL(url).protocol === 'https:' && canStreamBodies()))
      throw networkError('it could not be opened, and a request body cannot stream here without it')
    return fallback(input, init)
  }
  return tunnelFetch as typeof fetch
}
