import { backoffDelay } from './backoff'

export interface RetryOptions {
  /** Tries in all before giving up with the last error. */
  attempts?: number
  firstWaitMs?: number
  maxWaitMs?: number
  sleep?: (ms: number) => Promise<void>
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Fetches code the page asks for after it rendered (`retryImport(() => import('./x'))`), trying
 * again 1 s, 2 s, 4 s … (then every 30 s) apart while it fails: a chunk first wanted while the
 * stack restarts or the network drops arrives once they are back, instead of the feature staying
 * off until a reload. Browsers that keep a failed import failed (older ones do) give up after the
 * last attempt, with its error.
 */
export async function retryImport<M>(load: () => Promise<M>, options: RetryOptions = {}): Promise<M> {
  const { attempts = 20, firstWaitMs = 1000, maxWaitMs = 30_000, sleep = pause } = options
  // Exact steps, no jitter: a few small fetches a page, beside the session's reconnects, which are spread.
  const policy = { initialMs: firstWaitMs, maxMs: maxWaitMs, jitter: 0 }
  for (let attempt = 1; ; attempt++) {
    try {
      return await load()
    } catch (error) {
      if (attempt >= attempts) throw error
      const wait = backoffDelay(attempt, policy)
      console.warn(`Loading failed (attempt ${attempt} of ${attempts}), trying again in ${wait} ms`, error)
      await sleep(wait)
    }
  }
}
