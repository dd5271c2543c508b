import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { inBatches, listProcesses, parentsFirst, readProcEntries, readProcEntry } from './procTable'

/** A real process that has ended and been reaped: its pid is in no /proc any more. */
async function endedPid(): Promise<number> {
  const child = spawn('true', { stdio: 'ignore' })
  await new Promise((resolve) => child.once('exit', resolve))
  return child.pid as number
}

describe('procTable', () => {
  it('orders every parent before its children', () => {
    const entries = [
      { pid: 30, ppid: 20, state: 'S' },
      { pid: 5, ppid: 30, state: 'S' },
      { pid: 20, ppid: 1, state: 'S' },
      { pid: 40, ppid: 20, state: 'S' },
    ]
    expect(parentsFirst(entries)).toEqual([20, 30, 40, 5])
  })

  it('reads a live process and nothing for a gone one', async () => {
    expect(await readProcEntry(process.pid)).toMatchObject({ pid: process.pid, ppid: process.ppid })
    expect(await readProcEntry(2 ** 22 + 1)).toBeUndefined()
  })

  it('skips processes that ended before their turn, keeping the order of the rest', async () => {
    const gone = await endedPid()
    const entries = await readProcEntries([process.pid, gone, process.ppid])
    expect(entries.map((e) => e.pid)).toEqual([process.pid, process.ppid])
  })

  it('lists the host’s processes without holding the event loop for the whole scan', async () => {
    // Counts turns of the event loop: each runs the check phase once.
    let turns = 0
    let counting = true
    const count = () => {
      turns++
      if (counting) setImmediate(count)
    }
    setImmediate(count)
    const all = await listProcesses()
    counting = false
    expect(all.map((p) => p.pid)).toEqual(expect.arrayContaining([process.pid, process.ppid]))
    expect(all.find((p) => p.pid === process.pid)?.ppid).toBe(process.ppid)
    // The loop went on turning while /proc was read.
    expect(turns).toBeGreaterThan(1)
  })

  it('reads in bounded batches, each result in its item’s place', async () => {
    let inFlight = 0
    let most = 0
    const items = Array.from({ length: 200 }, (_, i) => i)
    const results = await inBatches(items, async (i) => {
      most = Math.max(most, ++inFlight)
      await new Promise((resolve) => setTimeout(resolve, (i * 7) % 3))
      inFlight--
      return i * 2
    })
    expect(results).toEqual(items.map((i) => i * 2))
    expect(most).toBe(64)
  })
})
