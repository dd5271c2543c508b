import { describe, expect, it } from 'vitest'
import { OutputCoalescer } from './outputCoalescer'
import type { OutputKind } from './outputLog'

/** A coalescer on a hand-turned clock, whose pending flush the test fires itself. */
function setup(gatherBytes = 100) {
  const published: [OutputKind, string][] = []
  let time = 1000
  let timer: { ms: number; fire: () => void; cancelled: boolean } | undefined
  const coalescer = new OutputCoalescer({
    publish: (kind, data) => published.push([kind, Buffer.from(data).toString()]),
    gatherBytes: () => gatherBytes,
    now: () => time,
    later: (ms, fire) => {
      const scheduled = { ms, fire, cancelled: false }
      timer = scheduled
      return () => {
        scheduled.cancelled = true
      }
    },
  })
  const read = (kind: OutputKind, text: string) => coalescer.collect(kind, Buffer.from(text))
  return {
    coalescer,
    published,
    read,
    later: (ms: number) => {
      time += ms
    },
    get timer() {
      return timer
    },
  }
}

describe('OutputCoalescer', () => {
  it('sends a lone read at once', () => {
    const t = setup()
    t.read('pty', 'a')
    expect(t.published).toEqual([['pty', 'a']])
    expect(t.timer).toBeUndefined()
  })

  it('sends reads that come far apart each on its own', () => {
    const t = setup()
    t.read('pty', 'a')
    t.later(5)
    t.read('pty', 'b')
    expect(t.published).toEqual([
      ['pty', 'a'],
      ['pty', 'b'],
    ])
  })

  it('sends the read right after a lone one at once too (a header, then its body)', () => {
    const t = setup()
    t.read('stdout', 'Content-Length: 2\r\n\r\n')
    t.read('stdout', '{}')
    expect(t.published).toEqual([
      ['stdout', 'Content-Length: 2\r\n\r\n'],
      ['stdout', '{}'],
    ])
    expect(t.timer).toBeUndefined()
  })

  it('gathers reads from the third that follows others closely, for 2 ms', () => {
    const t = setup()
    t.read('stdout', 'a')
    t.later(4)
    t.read('stdout', 'b')
    t.later(1)
    t.read('stdout', 'c')
    t.read('stdout', 'd')
    expect(t.published).toEqual([
      ['stdout', 'a'],
      ['stdout', 'b'],
    ])
    expect(t.timer?.ms).toBe(2)
    t.timer?.fire()
    expect(t.published).toEqual([
      ['stdout', 'a'],
      ['stdout', 'b'],
      ['stdout', 'cd'],
    ])
  })

  it('gathers for longer while output keeps coming, and for 2 ms again after a pause', () => {
    const t = setup()
    const gathers: number[] = []
    t.read('pty', 'a')
    t.read('pty', 'b')
    for (let i = 0; i < 4; i++) {
      t.later(1)
      t.read('pty', String(i))
      gathers.push(t.timer?.ms ?? 0)
      t.timer?.fire()
    }
    expect(gathers).toEqual([2, 4, 8, 8])
    t.later(10)
    t.read('pty', 'c')
    t.later(1)
    t.read('pty', 'd')
    t.read('pty', 'e')
    expect(t.timer?.ms).toBe(2)
  })

  it('sends what it gathered once it fills the largest event, and drops the timer', () => {
    const t = setup(4)
    t.read('pty', 'a')
    t.read('pty', 'b')
    t.read('pty', 'cd')
    expect(t.published).toEqual([
      ['pty', 'a'],
      ['pty', 'b'],
    ])
    t.read('pty', 'ef')
    expect(t.published).toEqual([
      ['pty', 'a'],
      ['pty', 'b'],
      ['pty', 'cdef'],
    ])
    expect(t.timer?.cancelled).toBe(true)
  })

  it('keeps order across stdout and stderr', () => {
    const t = setup()
    t.read('stdout', 'a')
    t.read('stdout', 'b')
    t.read('stderr', 'c')
    t.read('stdout', 'd')
    t.coalescer.flush()
    expect(t.published).toEqual([
      ['stdout', 'a'],
      ['stdout', 'b'],
      ['stderr', 'c'],
      ['stdout', 'd'],
    ])
  })

  it('flushes on demand, and only what is pending', () => {
    const t = setup()
    t.coalescer.flush()
    expect(t.published).toEqual([])
    t.read('pty', 'a')
    t.read('pty', 'b')
    t.read('pty', 'c')
    t.coalescer.flush()
    t.coalescer.flush()
    expect(t.published).toEqual([
      ['pty', 'a'],
      ['pty', 'b'],
      ['pty', 'c'],
    ])
    expect(t.timer?.cancelled).toBe(true)
  })
})
