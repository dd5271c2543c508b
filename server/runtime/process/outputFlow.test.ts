import { describe, expect, it } from 'vitest'
import { eventBytesFor, type NewSubscriber, OutputFlow, stalledAfterMs } from './outputFlow'

const KiB = 1024

/** A flow on a hand-turned clock, with a stall watch the test runs itself. */
function setup() {
  const valve = { pauses: 0, resumes: 0 }
  let time = 0
  let stallCheck: (() => void) | undefined
  let stallCheckEveryMs: number | undefined
  const flow = new OutputFlow(
    { pause: () => valve.pauses++, resume: () => valve.resumes++ },
    () => time,
    (ms, check) => {
      stallCheckEveryMs = ms
      stallCheck = check
      return () => {
        stallCheck = undefined
      }
    },
  )
  const stalled: string[] = []
  const add = (name: string, options: Partial<NewSubscriber> = {}) =>
    flow.add({
      window: undefined,
      sentFrom: 0,
      ackedFrom: 0,
      queued: () => 0,
      onStalled: () => stalled.push(name),
      ...options,
    })
  return {
    flow,
    valve,
    stalled,
    add,
    later: (ms: number) => {
      time += ms
    },
    get stallCheck() {
      return stallCheck
    },
    get stallCheckEveryMs() {
      return stallCheckEveryMs
    },
  }
}

describe('OutputFlow with windows', () => {
  it('pauses once one subscriber has more than its window unacknowledged', () => {
    const t = setup()
    t.add('keeping up', { window: 1024 * KiB })
    const slow = t.add('slow', { window: 64 * KiB })
    t.flow.sentUpTo(64 * KiB)
    expect(t.flow.isPaused).toBe(false)
    t.flow.sentUpTo(64 * KiB + 1)
    expect(t.flow.isPaused).toBe(true)
    expect(t.valve).toEqual({ pauses: 1, resumes: 0 })
    expect(slow.sent).toBe(64 * KiB + 1)
    // More output while paused does not pause again.
    t.flow.sentUpTo(80 * KiB)
    expect(t.valve.pauses).toBe(1)
  })

  it('resumes as soon as less than the window is unacknowledged', () => {
    const t = setup()
    const sub = t.add('a', { window: 64 * KiB })
    t.flow.sentUpTo(100 * KiB)
    t.flow.acknowledged(sub, 36 * KiB)
    expect(t.flow.isPaused).toBe(true)
    t.flow.acknowledged(sub, 36 * KiB + 1)
    expect(t.flow.isPaused).toBe(false)
    expect(t.valve).toEqual({ pauses: 1, resumes: 1 })
  })

  it('takes acknowledgements forward only, and never past what was sent', () => {
    const t = setup()
    const sub = t.add('a', { window: 64 * KiB })
    t.flow.sentUpTo(10 * KiB)
    t.flow.acknowledged(sub, 50 * KiB)
    expect(sub.acked).toBe(10 * KiB)
    t.flow.acknowledged(sub, 5 * KiB)
    expect(sub.acked).toBe(10 * KiB)
  })

  it('counts a replay as unacknowledged', () => {
    const t = setup()
    t.add('replaying', { window: 64 * KiB, sentFrom: 200 * KiB, ackedFrom: 100 * KiB })
    t.flow.sentUpTo(200 * KiB)
    expect(t.flow.isPaused).toBe(true)
  })

  it('knows the most any subscriber with a window left unacknowledged', () => {
    const t = setup()
    expect(t.flow.mostUnacknowledged()).toBe(0)
    const a = t.add('a', { window: 1024 * KiB })
    t.add('b', { window: 1024 * KiB, ackedFrom: 0, sentFrom: 0 })
    t.add('no window', { queued: () => 900 * KiB })
    t.flow.sentUpTo(300 * KiB)
    t.flow.acknowledged(a, 200 * KiB)
    expect(t.flow.mostUnacknowledged()).toBe(300 * KiB)
  })

  it('counts output flushed by an interrupt as acknowledged, and resumes', () => {
    const t = setup()
    const a = t.add('a', { window: 64 * KiB })
    const b = t.add('b', { window: 64 * KiB })
    const queued = t.add('no window', { queued: () => 0 })
    t.flow.sentUpTo(100 * KiB)
    t.flow.acknowledged(b, 90 * KiB)
    t.flow.flushedTo(80 * KiB)
    expect([a.acked, b.acked, queued.acked]).toEqual([80 * KiB, 90 * KiB, 0])
    expect(t.flow.isPaused).toBe(false)
    // Never past what a subscriber was sent.
    t.flow.flushedTo(500 * KiB)
    expect(a.acked).toBe(100 * KiB)
  })

  it('follows a new window at once: a smaller one pauses, a larger one resumes', () => {
    const t = setup()
    const a = t.add('a', { window: 256 * KiB })
    t.flow.sentUpTo(200 * KiB)
    t.flow.resize(a, 128 * KiB)
    expect(t.flow.isPaused).toBe(true)
    expect(a.window).toBe(128 * KiB)
    t.flow.resize(a, 1024 * KiB)
    expect(t.flow.isPaused).toBe(false)
    expect(t.valve).toEqual({ pauses: 1, resumes: 1 })
    // One without a window keeps none.
    const plain = t.add('plain')
    t.flow.resize(plain, 64 * KiB)
    expect(plain.window).toBeUndefined()
  })
})

describe('OutputFlow without windows', () => {
  it('pauses above 256 KiB queued and resumes only below 64 KiB', () => {
    const t = setup()
    let queued = 0
    const sub = t.add('reader', { queued: () => queued })
    queued = 256 * KiB
    t.flow.sentUpTo(queued)
    expect(t.flow.isPaused).toBe(false)
    queued = 256 * KiB + 1
    t.flow.sentUpTo(queued)
    expect(t.flow.isPaused).toBe(true)
    queued = 64 * KiB
    t.flow.took(sub)
    expect(t.flow.isPaused).toBe(true)
    queued = 64 * KiB - 1
    t.flow.took(sub)
    expect(t.flow.isPaused).toBe(false)
    expect(t.valve).toEqual({ pauses: 1, resumes: 1 })
  })

  it('ignores acknowledgements', () => {
    const t = setup()
    const sub = t.add('reader')
    t.flow.sentUpTo(10 * KiB)
    t.flow.acknowledged(sub, 10 * KiB)
    expect(sub.acked).toBe(0)
  })
})

describe('OutputFlow with several subscribers', () => {
  it('resumes only when every subscriber is back below its low mark', () => {
    const t = setup()
    let queued = 300 * KiB
    const reader = t.add('reader', { queued: () => queued })
    const acker = t.add('acker', { window: 64 * KiB })
    t.flow.sentUpTo(100 * KiB)
    expect(t.flow.isPaused).toBe(true)
    t.flow.acknowledged(acker, 100 * KiB)
    expect(t.flow.isPaused).toBe(true)
    queued = 0
    t.flow.took(reader)
    expect(t.flow.isPaused).toBe(false)
    expect(t.valve).toEqual({ pauses: 1, resumes: 1 })
  })

  it('resumes when the one lagging subscriber leaves', () => {
    const t = setup()
    t.add('fine', { window: 64 * KiB, sentFrom: 0, ackedFrom: 0 })
    const lagging = t.add('lagging', { queued: () => 1024 * KiB })
    t.flow.sentUpTo(0)
    expect(t.flow.isPaused).toBe(true)
    t.flow.remove(lagging)
    expect(t.flow.isPaused).toBe(false)
    expect(t.stalled).toEqual([])
  })
})

describe('OutputFlow stall watch', () => {
  it('watches only while paused', () => {
    const t = setup()
    const sub = t.add('a', { window: 64 * KiB })
    expect(t.stallCheck).toBeUndefined()
    t.flow.sentUpTo(100 * KiB)
    expect(t.stallCheck).toBeDefined()
    expect(t.stallCheckEveryMs).toBe(1000)
    t.flow.acknowledged(sub, 100 * KiB)
    expect(t.stallCheck).toBeUndefined()
  })

  it('cuts loose a subscriber that took nothing for the stall time, and the others go on', () => {
    const t = setup()
    let queued = 0
    const reader = t.add('reader', { queued: () => queued })
    const stuck = t.add('stuck', { window: 64 * KiB })
    queued = 300 * KiB
    t.flow.sentUpTo(100 * KiB)
    expect(t.flow.isPaused).toBe(true)
    // The reader keeps taking; the one with a window acknowledges nothing.
    t.later(stalledAfterMs)
    queued = 100 * KiB
    t.flow.took(reader)
    t.stallCheck?.()
    expect(t.stalled).toEqual([])
    t.later(1)
    t.stallCheck?.()
    expect(t.stalled).toEqual(['stuck'])
    // Still paused: the reader is not yet below the low mark.
    expect(t.flow.isPaused).toBe(true)
    queued = 0
    t.flow.took(reader)
    expect(t.flow.isPaused).toBe(false)
    // The stuck one left the flow: its backlog holds nothing back any more.
    t.flow.sentUpTo(200 * KiB)
    expect(t.flow.isPaused).toBe(false)
    expect(t.flow.mostUnacknowledged()).toBe(0)
    expect(stuck.acked).toBe(0)
  })

  it('resumes at once when the stalled subscriber was the only one behind', () => {
    const t = setup()
    t.add('fine', { window: 64 * KiB, sentFrom: 0, ackedFrom: 0 })
    t.add('stuck', { queued: () => 1024 * KiB })
    t.flow.sentUpTo(0)
    t.later(stalledAfterMs + 1)
    t.stallCheck?.()
    expect(t.stalled).toEqual(['stuck'])
    expect(t.flow.isPaused).toBe(false)
    expect(t.stallCheck).toBeUndefined()
  })

  it('spares an idle subscriber that is not behind', () => {
    const t = setup()
    let queued = 1024 * KiB
    const lagging = t.add('lagging', { queued: () => queued })
    t.add('idle', { window: 64 * KiB })
    t.flow.sentUpTo(1 * KiB)
    t.later(stalledAfterMs - 1)
    queued = 200 * KiB
    t.flow.took(lagging)
    t.later(2)
    t.stallCheck?.()
    expect(t.stalled).toEqual([])
    expect(t.flow.isPaused).toBe(true)
  })

  it('counts acknowledgements as progress for a subscriber with a window', () => {
    const t = setup()
    const acker = t.add('acker', { window: 64 * KiB })
    t.flow.sentUpTo(200 * KiB)
    t.later(stalledAfterMs)
    t.flow.acknowledged(acker, 10 * KiB)
    // Taking events is not progress for it: its window is what counts.
    t.later(stalledAfterMs)
    t.flow.took(acker)
    t.stallCheck?.()
    expect(t.stalled).toEqual([])
    t.later(1)
    t.stallCheck?.()
    expect(t.stalled).toEqual(['acker'])
  })
})

describe('OutputFlow after the process ended', () => {
  it('stops watching, forgets its subscribers and tracks no new one', () => {
    const t = setup()
    t.add('lagging', { queued: () => 1024 * KiB })
    t.flow.sentUpTo(0)
    expect(t.stallCheck).toBeDefined()
    t.flow.end()
    expect(t.stallCheck).toBeUndefined()
    const late = t.add('late', { window: 64 * KiB })
    t.flow.sentUpTo(500 * KiB)
    expect(late.sent).toBe(0)
    expect(t.flow.mostUnacknowledged()).toBe(0)
  })
})

describe('eventBytesFor', () => {
  it('sends envd’s chunks without a window, and a quarter of the window, up to 256 KiB, with one', () => {
    expect(eventBytesFor(undefined, 16 * KiB)).toBe(16 * KiB)
    expect(eventBytesFor(64 * KiB, 32 * KiB)).toBe(32 * KiB)
    expect(eventBytesFor(512 * KiB, 16 * KiB)).toBe(128 * KiB)
    expect(eventBytesFor(16 * 1024 * KiB, 16 * KiB)).toBe(256 * KiB)
  })
})
