import { z } from 'zod'
import { PlatformError } from '../platformError'
import type { StoredRemote } from './remoteStore'
import type { MetricFigures } from './sandboxUsage'

/** How long one call to a remote API may take, answer included. */
const callTimeoutMs = 10_000

/** The parts of E2B's `SandboxDetail` the IDE uses; anything else it sends is ignored. */
const sandboxDetail = z.object({
  sandboxID: z.string(),
  state: z.enum(['running', 'paused']),
  endAt: z.string(),
  envdVersion: z.string(),
  envdAccessToken: z.string().nullish(),
  domain: z.string().nullish(),
})

/** The parts of E2B's `SandboxMetric` the IDE shows. */
const metricFigures = z.object({
  timestamp: z.string(),
  cpuCount: z.number(),
  cpuUsedPct: z.number(),
  memUsed: z.number(),
  memTotal: z.number(),
}) satisfies z.ZodType<MetricFigures>

/** A sandbox as an E2B-compatible API describes it. */
export type RemoteSandboxDetail = z.infer<typeof sandboxDetail>

/** Why a fetch failed, in a few words (undici hides the reason in `cause`). */
function whyUnreachable(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer within ${callTimeoutMs / 1000} s`
  const cause = err instanceof Error ? err.cause : undefined
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code
    return code && !cause.message.includes(code) ? `${code} (${cause.message})` : cause.message
  }
  return err instanceof Error ? err.message : String(err)
}

/** The message of an E2B error body (`{code, message}`), or what the body says otherwise. */
function remoteMessage(status: number, text: string): string {
  try {
    const body: unknown = JSON.parse(text)
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
      return body.message
  } catch {}
  return text.trim().slice(0, 300) || `the E2B API answered ${status}`
}

/**
 * Calls an E2B-compatible platform API with a stored remote's key. The key goes only to the
 * remote's own apiUrl, in `X-API-Key`: redirects are not followed, since fetch would carry a
 * custom header along to wherever they point. The remote's errors come back as PlatformErrors
 * with its status and message; a remote that cannot be reached is a 502.
 */
export class E2bClient {
  constructor(private readonly remote: StoredRemote) {}

  /** Lists at most one sandbox: proves the key works. */
  async checkKey(): Promise<void> {
    await this.call('GET', '/v2/sandboxes?limit=1')
  }

  /** GET /sandboxes/{id} */
  async sandbox(id: string): Promise<RemoteSandboxDetail> {
    const text = await this.call('GET', `/sandboxes/${id}`)
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {}
    const parsed = sandboxDetail.safeParse(json)
    if (!parsed.success)
      throw new PlatformError(502, `the E2B API described sandbox ${id} in an unexpected shape`)
    return parsed.data
  }

  /** GET /sandboxes/{id}/metrics: the sandbox's use over time; what does not parse is left out. */
  async metrics(id: string): Promise<MetricFigures[]> {
    let json: unknown
    try {
      json = JSON.parse(await this.call('GET', `/sandboxes/${id}/metrics`))
    } catch (err) {
      if (err instanceof PlatformError) throw err
    }
    const parsed = z.array(metricFigures).safeParse(json)
    if (!parsed.success)
      throw new PlatformError(502, `the E2B API gave sandbox ${id}'s metrics in an unexpected shape`)
    return parsed.data
  }

  /** POST /sandboxes/{id}/pause */
  async pause(id: string): Promise<void> {
    await this.call('POST', `/sandboxes/${id}/pause`)
  }

  /** POST /v2/sandboxes/{id}/connect: resumes a paused sandbox, or extends a running one's timeout. */
  async connect(id: string, timeoutSeconds: number): Promise<void> {
    await this.call('POST', `/v2/sandboxes/${id}/connect`, { timeout: timeoutSeconds })
  }

  /** POST /sandboxes/{id}/timeout: the sandbox ends `seconds` from now. */
  async setTimeout(id: string, seconds: number): Promise<void> {
    await this.call('POST', `/sandboxes/${id}/timeout`, { timeout: seconds })
  }

  private async call(method: string, path: string, body?: unknown): Promise<string> {
    const { apiUrl, apiKey } = this.remote
    let res: Response
    let text: string
    try {
      res = await fetch(`${apiUrl}${path}`, {
        method,
        headers: {
          'X-API-Key': apiKey,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'manual',
        signal: AbortSignal.timeout(callTimeoutMs),
      })
      text = await res.text()
    } catch (err) {
      throw new PlatformError(502, `E2B API unreachable at ${apiUrl}: ${whyUnreachable(err)}`)
    }
    if (res.status >= 300 && res.status < 400) {
      throw new PlatformError(
        502,
        `the E2B API at ${apiUrl} answered with a redirect (${res.status}); set apiUrl to where it points`,
      )
    }
    if (res.status >= 400 && res.status <= 599)
      throw new PlatformError(res.status, remoteMessage(res.status, text))
    if (!res.ok) throw new PlatformError(502, `the E2B API at ${apiUrl} answered ${res.status}`)
    return text
  }
}
