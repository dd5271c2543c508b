import { setTimeout as sleep } from 'node:timers/promises'

/** Polls `done` (which may read asynchronously) until it holds; rejects with `what` after `timeoutMs`. */
export async function waitFor(
  done: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 5000, intervalMs = 10 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(intervalMs)
  }
}
