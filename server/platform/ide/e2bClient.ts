import { z } from 'zod'
import { PlatformError } from '../platformError'
import type { StoredRemote } from './remoteStore'
import type { MetricFigures } from './sandboxUsage'

/** How long one call to a remote API may take, answer included. */
const callTimeoutMs = 10_000

/** The parts of E2B's `SandboxDetail` the IDE uses; anything else it sends is ignored. */
const sandboxDetail = z.object({
  sandboxID: z.string(),
  templateID: z.string().nullish(),
  alias: z.string().nullish(),
  state: z.enum(['running', 'paused']),
  endAt: z.string(),
  envdVersion: z.string(),
  envdAccessToken: z.string().nullish(),
  domain: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
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

/** The parts of E2B's `ListedSandbox` a class needs. */
const listedSandbox = z.object({
  sandboxID: z.string(),
  templateID: z.string().nullish(),
  alias: z.string().nullish(),
  state: z.enum(['running', 'paused']),
  endAt: z.string(),
  metadata: z.record(z.string(), z.string()).nullish(),
})

/** A sandbox as E2B lists it. */
export type RemoteListedSandbox = z.infer<typeof listedSandbox>

/** The parts of E2B's `Sandbox` (a create's answer) the stack uses. */
const createdSandbox = z.object({ sandboxID: z.string() })

/** What the stack asks of E2B for a new sandbox. */
export interface RemoteSandboxRequest {
  templateId: string
  timeoutSeconds: number
  metadata: Record<string, string>
  /**
   * A grader: no internet access (`allow_internet_access: false`), and killed rather than paused
   * when its time runs out, so one the stack failed to remove ends by itself. Absent: a student's.
   */
  grader?: true
}

/** Most pages of a list the stack walks: 100 a page, so 5,000 sandboxes. */
const maxListPages = 50

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

/** The answer's JSON as `schema` has it, or a 502 saying what the E2B API did (`what`). */
function parsedAs<T>(schema: z.ZodType<T>, text: string, what: string): T {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {}
  const parsed = schema.safeParse(json)
  if (!parsed.success) throw new PlatformError(502, `the E2B API ${what} in an unexpected shape`)
  return parsed.data
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
    return parsedAs(sandboxDetail, await this.call('GET', `/sandboxes/${id}`), `described sandbox ${id}`)
  }

  /**
   * POST /sandboxes: a sandbox that pauses when its time runs out (it holds someone's work) and
   * whose runtime wants its own access token (`secure`), so one sandbox's token opens no other.
   * A grader's has no way out and is killed at its timeout instead.
   */
  async create(request: RemoteSandboxRequest): Promise<string> {
    const text = await this.call('POST', '/sandboxes', {
      templateID: request.templateId,
      timeout: request.timeoutSeconds,
      autoPause: !request.grader,
      secure: true,
      ...(request.grader ? { allow_internet_access: false } : {}),
      metadata: request.metadata,
    })
    return parsedAs(createdSandbox, text, 'answered a new sandbox').sandboxID
  }

  /** GET /v2/sandboxes, running and paused, whose metadata has every pair of `metadata`; every page. */
  async list(metadata: Record<string, string>): Promise<RemoteListedSandbox[]> {
    const found: RemoteListedSandbox[] = []
    let next: string | null = null
    for (let page = 0; page < maxListPages; page++) {
      const query = new URLSearchParams({ limit: '100' })
      if (Object.keys(metadata).length > 0) query.set('metadata', new URLSearchParams(metadata).toString())
      if (next) query.set('nextToken', next)
      const answer = await this.request('GET', `/v2/sandboxes?${query}`)
      found.push(...parsedAs(z.array(listedSandbox), answer.text, 'listed its sandboxes'))
      next = answer.nextToken
      if (!next) break
    }
    return found
  }

  /** DELETE /sandboxes/{id}: the sandbox and its files are gone. */
  async kill(id: string): Promise<void> {
    await this.call('DELETE', `/sandboxes/${id}`)
  }

  /** GET /sandboxes/{id}/metrics: the sandbox's use over time. */
  async metrics(id: string): Promise<MetricFigures[]> {
    const text = await this.call('GET', `/sandboxes/${id}/metrics`)
    return parsedAs(z.array(metricFigures), text, `gave sandbox ${id}'s metrics`)
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
    return (await this.request(method, path, body)).text
  }

  private async request(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ text: string; nextToken: string | null }> {
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
    return { text, nextToken: res.headers.get('X-Next-Token') }
  }
}
