import { describe, expect, it } from 'vitest'
import {
  drainMs,
  firstWindowBytes,
  maxWindowBytes,
  measureMs,
  minWindowBytes,
  OutputWindow,
} from './outputWindow'

const MB = 1_000_000

function setup() {
  const clock = { now: 0 }
  const window = new OutputWindow(() => clock.now)
  let offset = 0
  return {
    clock,
    window,
    /** Output parsed at `bytesPerSecond` for `ms`, a progress report every 100 ms. */
    parse(bytesPerSecond: number, ms: number) {
      for (let t = 0; t < ms; t += 100) {
        clock.now += 100
        offset += bytesPerSecond / 10
        window.progress(offset)
      }
    },
    /** The first report of a run of output (measuring starts from it), at `at` when given. */
    begin(at = offset) {
      offset = at
      window.progress(offset)
    },
  }
}

describe('OutputWindow', () => {
  it('starts at 1 MiB, then wants what half a second of the rate measured twice is', () => {
    const t = setup()
    expect(t.window.wanted).toBe(firstWindowBytes)
    t.begin()
    t.parse(5 * MB, measureMs)
    // Not yet: one measurement may be a burst of output that waited in a busy page.
    expect(t.window.wanted).toBe(firstWindowBytes)
    t.parse(5 * MB, measureMs)
    // 5 MB/s, as a 40 Mbit/s link parses: 2.5 MB in flight is half a second of it.
    expect(t.window.wanted).toBe(2.5 * MB)
  })

  it('keeps a slow link to half a second in flight, and a fast machine to at most 16 MiB', () => {
    const slow = setup()
    slow.begin()
    // 10 Mbit/s.
    slow.parse(1.25 * MB, 2 * measureMs)
    expect(slow.window.wanted).toBe(625_000)
    expect((slow.window.wanted / 1.25 / MB) * 1000).toBe(drainMs)
    const fast = setup()
    fast.begin()
    fast.parse(100 * MB, 2 * measureMs)
    expect(fast.window.wanted).toBe(maxWindowBytes)
  })

  it('is not fooled by output that waited in a busy page and is parsed in a burst', () => {
    const t = setup()
    t.begin()
    // A window's worth parsed at once after a busy moment (2.6 MB/s over the measurement)...
    t.parse(10 * firstWindowBytes, 100)
    t.parse(0, measureMs - 100)
    expect(t.window.wanted).toBe(firstWindowBytes)
    // ...then the link's 500 kB/s: the burst is never taken, and half a second of it is the floor.
    t.parse(0.5 * MB, measureMs)
    expect(t.window.wanted).toBe(minWindowBytes)
  })

  it('wants no less than 256 KiB, however slowly output comes', () => {
    const t = setup()
    t.begin()
    t.parse(10_000, 2000)
    expect(t.window.wanted).toBe(minWindowBytes)
  })

  it('does not count a pause of the program: measuring starts over after a second without output', () => {
    const t = setup()
    t.begin()
    t.parse(20 * MB, 2 * measureMs)
    expect(t.window.wanted).toBe(10 * MB)
    // Ten idle seconds, then a flood at the same rate: the estimate stays, nothing averages the pause in.
    t.clock.now += 10_000
    t.begin()
    t.parse(20 * MB, 2 * measureMs)
    expect(t.window.wanted).toBe(10 * MB)
  })

  it('starts over on a new stream, whose first offset may skip output that never crossed the link', () => {
    const t = setup()
    t.begin()
    t.parse(20 * MB, measureMs)
    t.window.restart()
    // A reattach whose replay starts 100 MB on: not a rate, and the first stream's measurement is gone.
    t.begin(100 * MB)
    t.parse(1 * MB, 2 * measureMs)
    // 1 MB/s since the reattach, half a second of which is 500 kB.
    expect(t.window.wanted).toBe(500_000)
  })

  it('keeps at least two of the shortest round trips of output in flight on a long link', () => {
    const t = setup()
    t.window.roundTrip(600)
    // Answers that waited behind the output in flight say nothing of the link.
    t.window.roundTrip(1900)
    t.begin()
    t.parse(1 * MB, 2 * measureMs)
    // 1 MB/s with 600 ms round trips: 1.2 s of it, not half a second.
    expect(t.window.wanted).toBe(1.2 * MB)
    // A new stream may come over another link: its own round trips count.
    t.window.restart()
    t.window.roundTrip(100)
    t.begin()
    t.parse(1 * MB, 2 * measureMs)
    expect(t.window.wanted).toBe(0.5 * MB)
  })
})
