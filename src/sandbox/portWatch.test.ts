import { describe, expect, it, vi } from 'vitest'
import { type PortChanges, watchPorts } from './portWatch'

describe('watchPorts', () => {
  it('tells which ports opened and closed between looks, and nothing when nothing changed', async () => {
    vi.useFakeTimers()
    const answers = [[8000], [8000, 3000], [3000], [3000]]
    let call = 0
    const changes: PortChanges[] = []
    const list = async () =>
      (answers[Math.min(call++, answers.length - 1)] ?? []).map((port) => ({ port, allAddresses: true }))
    const stop = watchPorts(list, 1000, (c) => changes.push(c))
    for (let i = 0; i < 4; i++) await vi.advanceTimersByTimeAsync(1000)
    stop()
    vi.useRealTimers()
    expect(changes).toEqual([
      { opened: [8000], closed: [] },
      { opened: [3000], closed: [] },
      { opened: [], closed: [8000] },
    ])
  })
})
