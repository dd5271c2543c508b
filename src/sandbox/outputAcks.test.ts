import { describe, expect, it, vi } from 'vitest'
import { OutputAcks } from './outputAcks'

const window = 1000

function harness(start = 0) {
  const calls: { offset: number; resolve: () => void; reject: (err: Error) => void }[] = []
  const onError = vi.fn()
  const acks = new OutputAcks(
    (offset) => new Promise<void>((resolve, reject) => calls.push({ offset, resolve, reject })),
    window,
    start,
    onError,
  )
  return { acks, calls, onError }
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

  it('keeps one call in flight and then sends the newest offset', async () => {
    const { acks, calls } = harness()
    acks.parsed(300)
    acks.parsed(600)
    acks.parsed(900)
    expect(calls.map((c) => c.offset)).toEqual([300])
    calls[0]?.resolve()
    await settle()
    expect(calls.map((c) => c.offset)).toEqual([300, 900])
  })

  it('reports a failed call and tries again later, and stops for good once disposed', async () => {
    vi.useFakeTimers()
    try {
      const { acks, calls, onError } = harness()
      acks.parsed(400)
      calls[0]?.reject(new Error('HTTP 502'))
      await vi.advanceTimersByTimeAsync(0)
      expect(onError).toHaveBeenCalledTimes(1)
      await vi.advanceTimersByTimeAsync(1000)
      expect(calls.map((c) => c.offset)).toEqual([400, 400])
      calls[1]?.reject(new Error('HTTP 502'))
      await vi.advanceTimersByTimeAsync(0)
      acks.dispose()
      await vi.advanceTimersByTimeAsync(5000)
      expect(calls).toHaveLength(2)
    } finally {
      vi.useRealTimers()
    }
  })
})
