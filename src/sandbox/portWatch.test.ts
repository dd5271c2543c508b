import { describe, expect, it, vi } from 'vitest'
import { type PortChanges, PortWatch, portChanges } from './portWatch'

const ports = (...numbers: number[]) => numbers.map((port) => ({ port, allAddresses: true, inode: port + 1 }))

describe('PortWatch', () => {
  it('tells which ports opened and closed between looks, and nothing when nothing changed', async () => {
    vi.useFakeTimers()
    const answers = [[8000], [8000, 3000], [3000], [3000]]
    let call = 0
    const watch = new PortWatch(
      async () => ports(...(answers[Math.min(call++, answers.length - 1)] ?? [])),
      () => true,
      { everyMs: 1000 },
    )
    const changes: PortChanges[] = []
    let seen = ports()
    const stop = watch.subscribe(() => {
      const next = watch.getSnapshot() ?? []
      changes.push(portChanges(seen, next))
      seen = next
    })
    for (let i = 0; i < 4; i++) await vi.advanceTimersByTimeAsync(1000)
    stop()
    vi.useRealTimers()
    expect(changes).toEqual([
      { opened: [8000], closed: [] },
      { opened: [3000], closed: [] },
      { opened: [], closed: [8000] },
    ])
  })

  it('looks once for every follower, only while the sandbox runs, and stops with the last follower', async () => {
    vi.useFakeTimers()
    let looks = 0
    let running = false
    const watch = new PortWatch(
      async () => {
        looks++
        return ports(8000)
      },
      () => running,
      { everyMs: 1000 },
    )
    const first = watch.subscribe(() => {})
    const second = watch.subscribe(() => {})
    await vi.advanceTimersByTimeAsync(2000)
    expect(looks).toBe(0)
    running = true
    await vi.advanceTimersByTimeAsync(2000)
    expect(looks).toBe(2)
    expect(watch.getSnapshot()).toEqual(ports(8000))
    first()
    second()
    second()
    await vi.advanceTimersByTimeAsync(5000)
    vi.useRealTimers()
    expect(looks).toBe(2)
  })

  it('asks for the process of each new socket once, keeps it while the socket lives, and lives without one', async () => {
    vi.useFakeTimers()
    const answers = [[8000], [8000, 3000], [3000], [3000, 5000]]
    let call = 0
    const asked: number[][] = []
    const watch = new PortWatch(
      async () => ports(...(answers[Math.min(call++, answers.length - 1)] ?? [])),
      () => true,
      {
        everyMs: 1000,
        findOwners: async (inodes) => {
          asked.push(inodes)
          if (inodes.includes(5001)) throw new Error('no find in this image')
          return new Map(inodes.map((inode) => [inode, { pid: inode, command: `server ${inode - 1}` }]))
        },
      },
    )
    const stop = watch.subscribe(() => {})
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(1000)
    stop()
    vi.useRealTimers()
    expect(asked).toEqual([[8001], [3001], [5001]])
    expect(watch.getSnapshot()).toEqual([
      { port: 3000, allAddresses: true, inode: 3001, owner: { pid: 3001, command: 'server 3000' } },
      { port: 5000, allAddresses: true, inode: 5001 },
    ])
  })
})
