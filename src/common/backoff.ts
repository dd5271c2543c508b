/** How reconnects are spaced: exponential from `initialMs` to `maxMs`, with ± `jitter` spread. */
export interface BackoffPolicy {
  initialMs: number
  maxMs: number
  /** Fraction of the delay to spread either way, so many clients do not retry in step. */
  jitter: number
}

export const defaultBackoff: BackoffPolicy = { initialMs: 1000, maxMs: 30_000, jitter: 0.2 }

/** The delay before attempt `attempt` (1-based); `random` is injectable for tests. */
export function backoffDelay(attempt: number, policy = defaultBackoff, random = Math.random): number {
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, attempt - 1))
  const spread = base * policy.jitter
  return Math.round(base - spread + random() * 2 * spread)
}
