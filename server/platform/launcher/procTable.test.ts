import { describe, expect, it } from 'vitest'
import { parentsFirst, readProcEntry } from './procTable'

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

  it('reads a live process and nothing for a gone one', () => {
    expect(readProcEntry(process.pid)).toMatchObject({ pid: process.pid, ppid: process.ppid })
    expect(readProcEntry(2 ** 22 + 1)).toBeUndefined()
  })
})
