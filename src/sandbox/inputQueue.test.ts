import { describe, expect, it } from 'vitest'
import { InputQueue } from './inputQueue'

const bytes = (s: string) => new TextEncoder().encode(s)
const text = (b: Uint8Array) => new TextDecoder().decode(b)

/** A send whose calls complete only when the test says so. */
function controlledSend() {
  const calls: { data: string; resolve: () => void; reject: (e: Error) => void }[] = []
  const send = (data: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ data: text(data), resolve, reject })
    })
  return { calls, send }
}

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('InputQueue', () => {
  it('keeps one call in flight and joins what was typed meanwhile into the next', async () => {
    const { calls, send } = controlledSend()
    const queue = new InputQueue(send, () => {})
    queue.push(bytes('l'))
    queue.push(bytes('s'))
    queue.push(bytes(' -la\r'))
    await tick()
    expect(calls.map((c) => c.data)).toEqual(['l'])
    calls[0]?.resolve()
    await tick()
    expect(calls.map((c) => c.data)).toEqual(['l', 's -la\r'])
    calls[1]?.resolve()
    await tick()
    expect(queue.queuedBytes).toBe(0)
  })

  it('sends a big paste in ordered pieces', async () => {
    const sent: string[] = []
    const queue = new InputQueue(
      async (d) => {
        sent.push(text(d))
      },
      () => {},
      4,
    )
    queue.push(bytes('abcdefghij'))
    await tick()
    await tick()
    expect(sent.join('')).toBe('abcdefghij')
    expect(sent.every((s) => s.length <= 4)).toBe(true)
  })

  it('keeps input that failed to send, in order, until retried', async () => {
    const { calls, send } = controlledSend()
    const errors: unknown[] = []
    const queue = new InputQueue(send, (e) => errors.push(e))
    queue.push(bytes('first'))
    await tick()
    calls[0]?.reject(new Error('sandbox paused'))
    await tick()
    queue.push(bytes(' second'))
    await tick()
    expect(errors).toHaveLength(1)
    expect(calls).toHaveLength(1)
    expect(queue.queuedBytes).toBe('first second'.length)
    queue.retry()
    await tick()
    expect(calls[1]?.data).toBe('first second')
  })
})
