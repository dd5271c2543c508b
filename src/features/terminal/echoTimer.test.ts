import { describe, expect, it } from 'vitest'
import { EchoTimer, isSingleKey } from './echoTimer'

function timer() {
  let clock = 0
  const medians: number[] = []
  const t = new EchoTimer(
    (m) => medians.push(m),
    () => clock,
  )
  return {
    t,
    medians,
    key(data: string, echoAfterMs?: number) {
      t.sent(data)
      if (echoAfterMs === undefined) return
      clock += echoAfterMs
      t.received()
      clock += 50
    },
    wait(ms: number) {
      clock += ms
    },
  }
}

describe('EchoTimer', () => {
  it('takes the median of the recent echoes of single keys, and says when it changes', () => {
    const { t, key, medians } = timer()
    expect(t.median).toBeUndefined()
    for (const ms of [10, 30, 20, 20, 20]) key('a', ms)
    expect(t.median).toBe(20)
    expect(medians).toEqual([10, 30, 20]) // each change once, none repeated
    for (let i = 0; i < 9; i++) key('b', 80)
    expect(t.median).toBe(80)
  })

  it('does not time pastes, escapes, Enter, or keys sent before the last was answered', () => {
    const { t, key } = timer()
    key('hello', 5)
    key('\x1b[A', 5)
    key('\r', 5)
    expect(t.median).toBeUndefined()
    // A burst: none of it is timed, not even a key after it whose echo would be the burst's.
    t.sent('a')
    key('b', 5)
    t.sent('c')
    t.sent('d')
    key('e', 1)
    expect(t.median).toBeUndefined()
    key('\x7f', 7)
    expect(t.median).toBe(7)
  })

  it('does not time a key typed while output flows: the next output was on its way already', () => {
    const { t, key, wait } = timer()
    // A flood: output every 5 ms, and a key typed in it "answered" 2 ms later.
    for (let i = 0; i < 10; i++) {
      t.received()
      wait(5)
    }
    t.received()
    wait(5)
    t.sent('q')
    wait(2)
    t.received()
    expect(t.median).toBeUndefined()
    // Once the output has been quiet a while, keys are timed again.
    wait(100)
    key('a', 40)
    expect(t.median).toBe(40)
  })

  it('drops a key that gets no answer within a second (a password prompt)', () => {
    const { t, key, wait } = timer()
    t.sent('x')
    wait(5000)
    t.received()
    expect(t.median).toBeUndefined()
    t.sent('y')
    wait(5000)
    key('z', 12)
    expect(t.median).toBe(12)
  })

  it('counts one character, even one of two UTF-16 units, as a key', () => {
    expect(isSingleKey('é')).toBe(true)
    expect(isSingleKey('😀')).toBe(true)
    expect(isSingleKey('\t')).toBe(false)
    expect(isSingleKey('ab')).toBe(false)
  })
})
