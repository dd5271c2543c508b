import { describe, expect, it } from 'vitest'
import { takeBytes } from './takeBytes'

const bytes = (...values: number[]) => new Uint8Array(values)

describe('takeBytes', () => {
  it('takes up to the limit across chunks, leaving the rest of a cut chunk at the front', () => {
    const queue = [bytes(1, 2), bytes(3, 4, 5)]
    expect([...takeBytes(queue, 3)]).toEqual([1, 2, 3])
    expect(queue.map((c) => [...c])).toEqual([[4, 5]])
  })

  it('with whole chunks, never cuts one: as many as fit, and a first one over the limit whole', () => {
    const queue = [bytes(1, 2), bytes(3, 4, 5), bytes(6)]
    expect([...takeBytes(queue, 4, true)]).toEqual([1, 2])
    expect([...takeBytes(queue, 2, true)]).toEqual([3, 4, 5])
    expect([...takeBytes(queue, 2, true)]).toEqual([6])
    expect(queue).toEqual([])
  })
})
