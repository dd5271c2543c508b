import { envdPort } from '../../src/contract/runtimeExtensions'
import { tokensMatch } from '../runtime/accessToken'
import { isSandboxId } from './ids'
import { PlatformError } from './platformError'
import type { RuntimeEndpoint, SandboxManager } from './sandboxManager'
import type { SandboxTarget } from './sandboxRouter'

/** Where a request for a sandbox goes: its runtime, or back with a status and E2B's body saying why. */
export type Reach =
  | { kind: 'running'; runtime: RuntimeEndpoint }
  | { kind: 'refused'; status: number; why: Record<string, unknown> }

/**
 * How long a request waits for the sandbox it resumes, a pause under way included (E2B's edge
 * gives a pause a minute to finish), before it is told to try again.
 */
export const resumeWaitMs = 60_000

/** A TCP port a sandbox may listen on. */
export const validPort = (port: number) => Number.isInteger(port) && port >= 1 && port <= 65535

/** E2B's 502 body for a sandbox, or a port of it, that cannot be reached. */
export function whyUnreachable(sandboxId: string, state: 'running' | 'paused' | 'missing', port: number) {
  if (state === 'missing') return { sandboxId, message: 'The sandbox was not found' }
  if (state === 'paused') return { sandboxId, message: 'The sandbox is paused; resume it to reach it' }
  return { sandboxId, message: 'The sandbox is running but port is not open', port }
}

const refused = (status: number, why: Record<string, unknown>): Reach => ({ kind: 'refused', status, why })

const tooLong = Symbol('the resume took too long')

/** `work`, or `tooLong` thrown once `ms` have passed. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(tooLong), ms)
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

/**
 * The way for one request to a sandbox. A paused sandbox made to resume on traffic (E2B's
 * auto-resume) is resumed for it first, as E2B's edge does, and only for a request that could
 * reach it running: other ports were let through by PortAccess before the router, and envd's
 * port wants the sandbox's own token (X-Access-Token), which E2B's edge asks for before it
 * resumes a sandbox too. The wait is bounded (`waitMs`); each failure has its own answer:
 * E2B's 403 without the token, its 409 when a pause or resume takes too long, the 502 of a
 * sandbox killed meanwhile, and a 502 that says why a resume failed.
 */
export async function reachSandbox(
  manager: Pick<SandboxManager, 'route' | 'get' | 'resumeForTraffic'>,
  { sandboxId, port }: SandboxTarget,
  accessToken: string | undefined,
  { waitMs = resumeWaitMs } = {},
): Promise<Reach> {
  const route = isSandboxId(sandboxId) ? manager.route(sandboxId) : ({ kind: 'missing' } as const)
  if (!validPort(port)) return refused(502, whyUnreachable(sandboxId, route.kind, port))
  if (route.kind === 'running') return route
  if (route.kind === 'missing') return refused(502, whyUnreachable(sandboxId, 'missing', port))
  const record = manager.get(sandboxId)
  if (!record.autoResume) return refused(502, whyUnreachable(sandboxId, 'paused', port))
  if (port === envdPort && !tokensMatch(accessToken, record.envdAccessToken)) {
    return refused(403, {
      sandboxId,
      message:
        "This sandbox can't be resumed with the credentials provided. Check your access token and try again.",
    })
  }
  let outcome: Awaited<ReturnType<SandboxManager['resumeForTraffic']>>
  try {
    outcome = await within(manager.resumeForTraffic(sandboxId), waitMs)
  } catch (err) {
    if (err === tooLong)
      return refused(409, {
        sandboxId,
        message: 'The sandbox is still transitioning. Try again in a moment.',
      })
    if (err instanceof PlatformError && err.status === 404)
      return refused(502, whyUnreachable(sandboxId, 'missing', port))
    const reason = err instanceof Error ? err.message : String(err)
    return refused(502, { sandboxId, message: `The sandbox could not be resumed (${reason})` })
  }
  if (outcome === 'processesLost') {
    return refused(502, {
      sandboxId,
      message:
        'The sandbox is paused and its processes are gone; a request does not start it again: resume it (connect) to reach it',
    })
  }
  // Paused again already (a pause right after the resume): said as it is.
  const after = manager.route(sandboxId)
  return after.kind === 'running' ? after : refused(502, whyUnreachable(sandboxId, after.kind, port))
}
