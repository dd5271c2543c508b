import { describe, expect, it, vi } from 'vitest'
import { type PortChanges, PortWatch, portChanges } from './portWatch'
import { SandboxActivity } from './sandboxActivity'

const ports = (...numbers: number[]) => numbers.map((port) => ({ port, allAddresses: true, inode: port + 1 }))

/**
 * A watch with the busy and quiet paces, followed from time 0 of a fake clock: the moments (ms)
 * it looked at, and the activity that sets its pace.
 */
function followedOnAClock() {
  vi.useFakeTimers({ now: 1_000_000 })
  const lookedAt: number[] = []
  const activity = new SandboxActivity()
  const watch = new PortWatch(
    async () => {
      lookedAt.push(Date.now() - 1_000_000)
      return ports()
    },
    () => true,
    { everyMs: 500, quietEveryMs: 3000, activity },
  )
  return { lookedAt, activity, watch, stop: watch.subscribe(() => {}) }
}

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

  it('looks seldom while the sandbox is quiet, soon after it wakes up, often while it is busy or a port is waited for', async () => {
    const { lookedAt, activity, watch, stop } = followedOnAClock()
    // Quiet: the first look at once, then every 3 s.
    await vi.advanceTimersByTimeAsync(7000)
    expect(lookedAt).toEqual([0, 3000, 6000])
    // A keystroke at 7 s: the look due at 9 s comes at 7.5 s, and they keep the busy pace.
    activity.note()
    await vi.advanceTimersByTimeAsync(2000)
    expect(lookedAt.slice(3)).toEqual([7500, 8000, 8500, 9000])
    // Busy for 15 s after the last activity, then quiet again.
    await vi.advanceTimersByTimeAsync(20_000)
    expect(lookedAt.slice(lookedAt.indexOf(22_000))).toEqual([22_000, 25_000, 28_000])
    // A preview waiting on a closed port (from 29 s) keeps the busy pace with no activity, until it stops.
    const stopWaiting = watch.waitForPort()
    await vi.advanceTimersByTimeAsync(2000)
    expect(lookedAt.slice(-4)).toEqual([29_500, 30_000, 30_500, 31_000])
    stopWaiting()
    await vi.advanceTimersByTimeAsync(5000)
    expect(lookedAt.slice(-2)).toEqual([31_500, 34_500])
    stop()
    vi.useRealTimers()
  })

  it('waits for a pause in typing before it looks, for at most two seconds', async () => {
    const { lookedAt, activity, stop } = followedOnAClock()
    await vi.advanceTimersByTimeAsync(100)
    expect(lookedAt).toEqual([0])
    // A word typed from 300 ms, a key every 100 ms until 700: the look due at 500 waits until
    // typing has paused for 250 ms, at 950; the next keeps the pace from there.
    for (let at = 300; at <= 700; at += 100) {
      await vi.advanceTimersByTimeAsync(at - (Date.now() - 1_000_000))
      activity.typed()
    }
    await vi.advanceTimersByTimeAsync(1000)
    expect(lookedAt).toEqual([0, 950, 1450])
    // Typing that goes on (a key every 50 ms from 1.7 s to 6 s): looks at most two seconds late.
    for (let at = 1700; at <= 6000; at += 50) {
      await vi.advanceTimersByTimeAsync(at - (Date.now() - 1_000_000))
      activity.typed()
    }
    // The look due at 1950 comes at 3950; the one due at 4450, 250 ms after the last key.
    expect(lookedAt.slice(3)).toEqual([3950])
    await vi.advanceTimersByTimeAsync(1000)
    expect(lookedAt.slice(3)).toEqual([3950, 6250, 6750])
    stop()
    vi.useRealTimers()
  })
})
