// Runs the fuzz suite against a started stack: each generated request, then a normal request on
// the same keep-alive connection, with every answer judged. Shared by the test and the bench.
import { randomBytes } from 'node:crypto'
import { Agent } from 'node:http'
import fc from 'fast-check'
import { exchange, type FuzzAnswer, type FuzzRequest, showRequest } from './fuzzExchange'
import { type FuzzTargets, fuzzRequest } from './fuzzRequests'

/** How long any answer may take before the suite calls it a hang. */
export const answerBoundMs = 10_000

/** What a run saw. */
export interface FuzzStats {
  requests: number
  seconds: number
  slowest: { ms: number; request: string }
  statuses: Record<string, number>
}

const show = showRequest

/**
 * The 5xx answers the stack documents, all of a sandbox's runtime or its router, as envd and
 * E2B have them: 502 for a sandbox or port that cannot be reached; 501 `unimplemented` for an
 * empty selector or input or an unsupported signal; 500 for an error of the sandbox's own
 * system, saying which (`internal` with the errno, as `ENAMETOOLONG` or `EROFS`; `/files`'
 * "error …" with it); 507 for a full disk. And one of connect-es: a protobuf body it cannot
 * decode is `internal` (envd's connect-go says `invalid_argument`; listed in docs/runtime.md).
 * And the IDE's own: 503 for its pages while it is not built.
 */
function documented5xx(req: FuzzRequest, status: number, text: string): boolean {
  // The IDE's pages before `npm run build` (as a unit test that starts a stack may see them).
  if (status === 503 && /^The IDE is not built yet/.test(text))
    return req.method === 'GET' || req.method === 'HEAD'
  if (req.target !== 'runtime') return false
  if (status === 502) return req.method === 'HEAD' || /"message"/.test(text)
  if (status === 501) return /^\{"code":"unimplemented"/.test(text)
  if (status === 507) return /not enough (disk space|inodes)/.test(text)
  const systemError = /\bE[A-Z0-9]{2,}\b/.test(text)
  return (
    status === 500 &&
    (/^\{"code":"internal","message":"parse binary: /.test(text) ||
      (/^\{"code":"internal","message":"/.test(text) && systemError) ||
      (req.path.startsWith('/files') && /^\{"code":500,"message":"error /.test(text) && systemError))
  )
}

/** Why an answer is wrong, or undefined when it is a well-formed answer of an expected kind. */
export function judge(
  req: FuzzRequest,
  answer: FuzzAnswer,
  t: FuzzTargets,
  hostSecret: string,
): string | undefined {
  if (answer.error !== undefined || answer.status === undefined) return answer.error ?? 'no status'
  const status = answer.status
  const type = String(answer.headers['content-type'] ?? '')
  const text = answer.body.toString('latin1')
  for (const [name, secret] of [
    ['the platform API key', t.apiKey],
    ["the IDE's token", t.ideToken],
    ['a host file', hostSecret],
  ] as const)
    if (text.includes(secret)) return `the answer holds ${name}`
  if (!req.privileged)
    for (const s of t.sandboxes)
      if (text.includes(s.accessToken))
        return `an answer to a request without credentials holds ${s.id}'s access token`
  // The one documented 5xx: E2B's 502 for a sandbox (or a port of it) that cannot be reached.
  if (status >= 500 && !documented5xx(req, status, text)) return `status ${status}: ${text.slice(0, 300)}`
  if (/json/.test(type) && !/connect\+/.test(type) && !answer.cut && req.method !== 'HEAD' && text) {
    let json: unknown
    try {
      json = JSON.parse(answer.body.toString('utf8'))
    } catch {
      return `malformed JSON in a ${status} answer: ${text.slice(0, 200)}`
    }
    if (status >= 400) {
      // Connect errors carry a string code (the message is optional); envd's own answers (401,
      // /files) and the platform's carry {code: <status>, message}.
      const body = json as { code?: unknown; message?: unknown }
      const wellFormed =
        typeof body.code === 'string' || (body.code === status && typeof body.message === 'string')
      if (!wellFormed) return `error body is neither Connect's nor E2B's: ${text.slice(0, 200)}`
    }
  }
  return undefined
}

/** A request that must always work, to the same server as `req`, with the right credentials. */
function normalRequest(req: FuzzRequest, t: FuzzTargets): Omit<FuzzRequest, 'target' | 'privileged'> {
  const first = t.sandboxes[0]
  if (!first) throw new Error('the fuzz needs a sandbox')
  if (req.target === 'platform')
    return { method: 'GET', path: '/v2/sandboxes?limit=1', headers: { 'X-API-Key': t.apiKey } }
  if (req.target === 'ide')
    return {
      method: 'GET',
      path: '/ide/api/stack',
      headers: { Host: `127.0.0.1:${t.port}`, 'X-Sandbox-IDE': '1', Authorization: `Bearer ${t.ideToken}` },
    }
  if (req.target === 'demo')
    return { method: 'GET', path: '/demo.js', headers: { Host: `embed-demo.localhost:${t.port}` } }
  return { method: 'GET', path: '/health', headers: { Host: `49983-${first.id}.localhost:${t.port}` } }
}

/** A marker only a file on the host holds; the fuzz asks for that file by every path it knows. */
export function hostSecretMarker(): string {
  return `HOST-ONLY-${randomBytes(12).toString('hex')}`
}

/**
 * Runs `runs` generated requests from `seed` against the stack described by `t`; throws with the
 * counterexample (and the seed to replay it) at the first wrong answer or hang.
 */
export async function runFuzz(
  t: FuzzTargets,
  { seed, runs, hostSecret }: { seed: number; runs: number; hostSecret: string },
): Promise<FuzzStats> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const stats: FuzzStats = { requests: 0, seconds: 0, slowest: { ms: 0, request: '' }, statuses: {} }
  const started = performance.now()
  /** The last requests, with how long each took: what led to a failure. */
  const recent: string[] = []
  try {
    await fc.assert(
      fc.asyncProperty(fuzzRequest(t), async (req) => {
        const answer = await exchange(agent, t.port, req, { timeoutMs: answerBoundMs })
        recent.push(
          `${answer.ms.toFixed(0).padStart(5)} ms ${answer.status ?? answer.error} ${show(req).slice(0, 160)}`,
        )
        if (recent.length > 8) recent.shift()
        stats.requests++
        const key = `${req.target} ${answer.status ?? 'none'}`
        stats.statuses[key] = (stats.statuses[key] ?? 0) + 1
        if (answer.ms > stats.slowest.ms) stats.slowest = { ms: answer.ms, request: show(req) }
        const wrong = judge(req, answer, t, hostSecret)
        if (wrong)
          throw new Error(`${wrong}\n  request: ${show(req)}\n  the last ones:\n    ${recent.join('\n    ')}`)
        // The same connection (unless the server closed it, as it may after an early answer).
        const after = await exchange(agent, t.port, normalRequest(req, t), { timeoutMs: answerBoundMs })
        if (after.error || (after.status !== 200 && after.status !== 204))
          throw new Error(
            `the next request after this one failed (${after.error ?? after.status}: ${after.body.toString().slice(0, 200)})\n  request: ${show(req)}\n  the last ones:\n    ${recent.join('\n    ')}`,
          )
      }),
      // A hang costs the bound at every shrinking step: report the first failure as it is.
      { seed, numRuns: runs, endOnFailure: true, includeErrorInReport: true },
    )
  } finally {
    agent.destroy()
    stats.seconds = (performance.now() - started) / 1000
  }
  return stats
}
