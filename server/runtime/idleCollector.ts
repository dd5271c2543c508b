import { performance } from 'node:perf_hooks'
import { getHeapStatistics } from 'node:v8'

/** How often the collector looks. */
export const lookEveryMs = 60_000
/** Heap grown by this much since the last collection is worth one... */
export const collectAfterGrowthBytes = 4 * 1024 * 1024
/** ...when the event loop was busy less than this share of the last minute (no flood under way). */
export const quietBelowUtilization = 0.1

export interface IdleCollectorOptions {
  /** A full collection: `globalThis.gc`, there with `--expose-gc` (server/nodeFlags.ts). */
  gc: () => void
  heapUsed?: () => number
  /** The event loop's busy share since the last call (the first call: since start). */
  utilization?: () => number
  /** Runs `look` every `ms` until the returned function is called. */
  every?: (ms: number, look: () => void) => () => void
}

const everyUnref = (ms: number, look: () => void) => {
  const timer = setInterval(look, ms).unref()
  return () => clearInterval(timer)
}

function utilizationSinceLastCall(): () => number {
  let last = performance.eventLoopUtilization()
  return () => {
    const now = performance.eventLoopUtilization()
    const share = performance.eventLoopUtilization(now, last).utilization
    last = now
    return share
  }
}

/**
 * A full collection now and then while the runtime is quiet. The runtime's old generation starts
 * at 64 MB (server/nodeFlags.ts) so a terminal flood's garbage starts no full collection; but
 * V8 then collects none at all below 64 MB, and its memory reducer, which collects in quiet
 * times, only runs until the first. A terminal typed in all day promotes some 0.6 MB of short-
 * lived objects a minute (streams and requests that outlive two scavenges): without this, a
 * runtime grew by that until its old generation reached 64 MB, some 90 minutes in (issue 44).
 * A collection of its ~15 MB heap takes ~10 ms, once every few minutes of typing.
 */
export function startIdleCollector({
  gc,
  heapUsed = () => getHeapStatistics().used_heap_size,
  utilization = utilizationSinceLastCall(),
  every = everyUnref,
}: IdleCollectorOptions): () => void {
  /** The heap at its lowest since the last collection (V8's own collections lower it too). */
  let lowest = heapUsed()
  return every(lookEveryMs, () => {
    const busy = utilization()
    const used = heapUsed()
    lowest = Math.min(lowest, used)
    if (used - lowest < collectAfterGrowthBytes || busy >= quietBelowUtilization) return
    gc()
    lowest = heapUsed()
  })
}
