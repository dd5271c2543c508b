import { describe, expect, it } from 'vitest'
import {
  collectAfterGrowthBytes,
  lookEveryMs,
  quietBelowUtilization,
  startIdleCollector,
} from './idleCollector'

const MiB = 1024 * 1024

/** A collector over a heap and an event loop the test sets, looking when the test says. */
function setup() {
  const state = { heap: 12 * MiB, busy: 0.01, collections: 0, stopped: false, everyMs: 0 }
  let look = () => {}
  const stop = startIdleCollector({
    gc: () => {
      state.collections++
      // What a full collection leaves: the live heap.
      state.heap = 12 * MiB
    },
    heapUsed: () => state.heap,
    utilization: () => state.busy,
    every: (ms, fn) => {
      state.everyMs = ms
      look = fn
      return () => {
        state.stopped = true
      }
    },
  })
  return { state, look: () => look(), stop }
}

describe('startIdleCollector', () => {
  it('collects once the heap grew by its threshold while the runtime was quiet, and counts from after it', () => {
    const { state, look } = setup()
    expect(state.everyMs).toBe(lookEveryMs)
    state.heap += collectAfterGrowthBytes - 1
    look()
    expect(state.collections).toBe(0)
    state.heap += 1
    look()
    expect(state.collections).toBe(1)
    // Growth counts from what the collection left, not from the start.
    state.heap += collectAfterGrowthBytes / 2
    look()
    expect(state.collections).toBe(1)
    state.heap += collectAfterGrowthBytes / 2
    look()
    expect(state.collections).toBe(2)
  })

  it('leaves a busy runtime alone (a flood), and collects at the first quiet look after it', () => {
    const { state, look } = setup()
    state.heap += 3 * collectAfterGrowthBytes
    state.busy = quietBelowUtilization
    look()
    look()
    expect(state.collections).toBe(0)
    state.busy = quietBelowUtilization / 2
    look()
    expect(state.collections).toBe(1)
  })

  it("counts growth from the lowest heap it saw, so a collection of V8's own counts too", () => {
    const { state, look } = setup()
    state.heap = 14 * MiB
    look()
    // V8 collected on its own: growth counts from there, not from 12 MiB.
    state.heap = 9 * MiB
    look()
    state.heap = 9 * MiB + collectAfterGrowthBytes
    look()
    expect(state.collections).toBe(1)
  })

  it('stops looking when told', () => {
    const { state, stop } = setup()
    stop()
    expect(state.stopped).toBe(true)
  })

  it('judges quiet by the real event loop: not after a busy stretch, yes after a quiet one', async () => {
    let heap = 12 * MiB
    let collections = 0
    let look = () => {}
    startIdleCollector({
      gc: () => {
        collections++
      },
      heapUsed: () => heap,
      every: (_ms, fn) => {
        look = fn
        return () => {}
      },
    })
    heap += 2 * collectAfterGrowthBytes
    const until = performance.now() + 150
    while (performance.now() < until) {}
    look()
    expect(collections).toBe(0)
    await new Promise((resolve) => setTimeout(resolve, 300))
    look()
    expect(collections).toBe(1)
  })
})
