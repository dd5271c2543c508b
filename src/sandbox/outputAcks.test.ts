import { describe, expect, it, vi } from 'vitest'
import type { AckAnswer } from '../api/outputAck'
import { OutputAcks } from './outputAcks'
import { OutputWindow } from './outputWindow'

const window = 1000

function harness(start = 0, clock = { now: 0 }, windowBytes = window) {
  const calls: {
    offset: number
    window: number | undefined
    resolve: (answer?: AckAnswer) => void
    reject: (err: Error) => void
  }[] = []
  const onError = vi.fn()
  const onFlush = vi.fn()
  const estimate = new OutputWindow(() => clock.now)
  const acks = new OutputAcks(
    (offset, window) =>
      new Promise<AckAnswer>((resolve, reject) =>
        calls.push({ offset, window, resolve: (answer = {}) => resolve(answer), reject }),
      ),
    windowBytes,
    estimate,
    start,
    onError,
    onFlush,
    () => clock.now,
  )
  return { acks, calls, onError, onFlush, estimate }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

describe('OutputAcks', () => {
  it('acknowledges once a quarter of the window is parsed, from where the stream started', () => {
    const { acks, calls } = harness(5000)
    acks.parsed(5000 + window / 4 - 1)
    expect(calls).toEqual([])
    acks.parsed(5000 + window / 4)
    expect(calls.map((c) => c.offset)).toEqual([5000 + window / 4])
  })

  it('keeps at most two calls in flight and then sends the newest offset', async () => {
    const { acks, calls } = harness()
    acks.parsed(300)
    acks.parsed(600)
    acks.parsed(900)
    acks.parsed(1200)
    expect(calls.map((c) => c.offset)).toEqual([300, 600])
    calls[1]?.resolve()
    await settle()
    expect(calls.map((c) => c.offset)).toEqual([300, 600, 1200])
  })

  it('passes on where a Ctrl-C flushed the output', async () => {
    const { acks, calls, onFlush } = harness()
    acks.parsed(300)
    calls[0]?.resolve()
    await settle()
    expect(onFlush).not.toHaveBeenCalled()
    acks.parsed(600)
    calls[1]?.resolve({ flushedTo: 9000 })
    await settle()
    expect(onFlush).toHaveBeenCalledWith(9000)
  })

  it('reports a failed call and tries again later, and stops for good once disposed', async () => {
    vi.useFakeTimers()
    try {
      const { acks, calls, onError } = harness()
      acks.parsed(400)
      calls[0]?.reject(new Error('HTTP 502'))
      await vi.advanceTimersByTimeAsync(0)
      expect(onError).toHaveBeenCalledTimes(1)
      acks.parsed(700)
      expect(calls).toHaveLength(1)
      await vi.advanceTimersByTimeAsync(1000)
      expect(calls.map((c) => c.offset)).toEqual([400, 700])
      calls[1]?.reject(new Error('HTTP 502'))
      await vi.advanceTimersByTimeAsync(0)
      acks.dispose()
      await vi.advanceTimersByTimeAsync(5000)
      expect(calls).toHaveLength(2)
    } finally {
      vi.useRealTimers()
    }
  })

  it('after a Ctrl-C, acknowledges at most 256 KiB at a time for half a second, to learn the flush soon', async () => {
    const clock = { now: 0 }
    const large = 16 * 1024 * 1024
    const hurried = 256 * 1024
    const { acks, calls } = harness(0, clock, large)
    acks.hurry()
    acks.parsed(hurried - 1)
    expect(calls).toEqual([])
    acks.parsed(hurried)
    expect(calls.map((c) => c.offset)).toEqual([hurried])
    calls[0]?.resolve()
    await settle()
    clock.now = 501
    acks.parsed(hurried + large / 8)
    expect(calls).toHaveLength(1)
    acks.parsed(hurried + large / 4)
    expect(calls.map((c) => c.offset)).toEqual([hurried, hurried + large / 4])
  })

  it('after a Ctrl-C, a window smaller than four steps of 256 KiB keeps its quarters', () => {
    const { acks, calls } = harness()
    acks.hurry()
    acks.parsed(window / 4 - 1)
    expect(calls).toEqual([])
    acks.parsed(window / 4)
    expect(calls.map((c) => c.offset)).toEqual([window / 4])
  })

  it('asks for the window the estimate wants only when it differs, and steps by the one granted', async () => {
    const clock = { now: 0 }
    const MiB = 1024 * 1024
    const { acks, calls, estimate } = harness(0, clock, 4 * MiB)
    // The estimate starts at 1 MiB: the first acknowledgement asks for it.
    acks.parsed(MiB)
    expect(calls.map((c) => c.window)).toEqual([MiB])
    calls[0]?.resolve({ window: MiB })
    await settle()
    // Steps are now a quarter of 1 MiB, and nothing new is asked for.
    acks.parsed(MiB + MiB / 4)
    expect(calls.map((c) => [c.offset, c.window])).toEqual([
      [MiB, MiB],
      [MiB + MiB / 4, undefined],
    ])
    calls[1]?.resolve()
    await settle()
    // Output parsed at 8 MB/s for half a second, twice: the estimate wants 4 MB, and the next ack asks.
    clock.now = 500
    acks.parsed(MiB + 4_000_000)
    expect(calls[2]?.window).toBeUndefined()
    clock.now = 1000
    acks.parsed(MiB + 8_000_000)
    expect(estimate.wanted).toBe(4_000_000)
    expect(calls[3]?.window).toBe(4_000_000)
  })

  it('keeps its window when an answer grants one that is not a positive number of bytes', async () => {
    const { acks, calls } = harness(0, { now: 0 }, 4000)
    acks.parsed(1000)
    calls[0]?.resolve({ window: Number.NaN })
    await settle()
    // Still a quarter of 4,000 bytes a step: acknowledgements go on.
    acks.parsed(2000)
    expect(calls.map((c) => c.offset)).toEqual([1000, 2000])
  })

  it('asks for a window in one acknowledgement at a time, so the runtime takes them in order', async () => {
    const clock = { now: 0 }
    const MiB = 1024 * 1024
    const { acks, calls } = harness(0, clock, 4 * MiB)
    acks.parsed(MiB)
    acks.parsed(2 * MiB)
    // Both want 1 MiB; only the first asks.
    expect(calls.map((c) => c.window)).toEqual([MiB, undefined])
    calls[1]?.resolve()
    await settle()
    acks.parsed(3 * MiB)
    expect(calls[2]?.window).toBeUndefined()
    // Once the first is answered (granting less than asked), the next asks again.
    calls[0]?.resolve({ window: MiB / 2 })
    await settle()
    calls[2]?.resolve()
    await settle()
    acks.parsed(3 * MiB + MiB / 8)
    expect(calls[3]?.window).toBe(MiB)
  })
})
