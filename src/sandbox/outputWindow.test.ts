import { describe, expect, it } from 'vitest'
import { drainMs, firstWindowBytes, maxWindowBytes, minWindowBytes, OutputWindow } from './outputWindow'

const MB = 1_000_000

function setup() {
  const clock = { now: 0 }
  return { clock, window: new OutputWindow(() => clock.now) }
}

describe('OutputWindow', () => {
  it('starts at 1 MiB, then wants what half a second of the measured rate is', () => {
    const { clock, window } = setup()
    expect(window.wanted).toBe(firstWindowBytes)
    window.progress(0)
    clock.now = 200
    window.progress(1 * MB)
    // Not yet: a rate is measured over at least 400 ms.
    expect(window.wanted).toBe(firstWindowBytes)
    clock.now = 400
    window.progress(2 * MB)
    // 5 MB/s, as a 40 Mbit/s link parses: 2.5 MB in flight is half a second of it.
    expect(window.wanted).toBe(2.5 * MB)
  })

  it('keeps a slow link to half a second in flight, and a fast machine to at most 16 MiB', () => {
    const slow = setup()
    slow.window.progress(0)
    slow.clock.now = 1000
    // 10 Mbit/s.
    slow.window.progress(1.25 * MB)
    expect(slow.window.wanted).toBe(625_000)
    expect((slow.window.wanted / 1.25 / MB) * 1000).toBe(drainMs)
    const fast = setup()
    fast.window.progress(0)
    fast.clock.now = 400
    fast.window.progress(40 * MB)
    expect(fast.window.wanted).toBe(maxWindowBytes)
  })

  it('wants no less than 256 KiB, however slowly output comes', () => {
    const { clock, window } = setup()
    window.progress(0)
    for (let t = 100; t <= 2000; t += 100) {
      clock.now = t
      window.progress(t)
    }
    expect(window.wanted).toBe(minWindowBytes)
  })

  it('does not count a pause of the program: measuring starts over after a second without output', () => {
    const { clock, window } = setup()
    window.progress(0)
    clock.now = 400
    window.progress(8 * MB)
    expect(window.wanted).toBe(10 * MB)
    // Ten idle seconds, then a flood at the same rate: the estimate stays, nothing averages the pause in.
    clock.now = 10_400
    window.progress(8 * MB + 100)
    clock.now = 10_800
    window.progress(16 * MB + 100)
    expect(window.wanted).toBe(10 * MB)
  })

  it('starts over on a new stream, whose first offset may skip output that never crossed the link', () => {
    const { clock, window } = setup()
    window.progress(0)
    clock.now = 100
    window.restart()
    // A reattach whose replay starts 100 MB on: not a rate.
    window.progress(100 * MB)
    clock.now = 500
    window.progress(100 * MB + 400_000)
    // 400 kB in 400 ms: 1 MB/s, half a second of which is 500 kB.
    expect(window.wanted).toBe(500_000)
  })

  it('keeps at least two of the shortest round trips of output in flight on a long link', () => {
    const { clock, window } = setup()
    window.roundTrip(600)
    // Answers that waited behind the output in flight say nothing of the link.
    window.roundTrip(1900)
    window.progress(0)
    clock.now = 1000
    window.progress(1 * MB)
    // 1 MB/s with 600 ms round trips: 1.2 s of it, not half a second.
    expect(window.wanted).toBe(1.2 * MB)
    // A new stream may come over another link: its own round trips count.
    window.restart()
    window.roundTrip(100)
    window.progress(1 * MB)
    clock.now = 2000
    window.progress(2 * MB)
    expect(window.wanted).toBe(0.5 * MB)
  })
})
