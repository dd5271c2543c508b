import { describe, expect, it } from 'vitest'
import { parseByteRange } from './byteRange'

describe('parseByteRange', () => {
  it('reads single ranges and clamps the end', () => {
    expect(parseByteRange('bytes=0-4', 10)).toEqual({ start: 0, end: 4 })
    expect(parseByteRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 })
    expect(parseByteRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 })
    expect(parseByteRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 })
    expect(parseByteRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 })
    expect(parseByteRange(' bytes = 1 - 2 ', 10)).toEqual({ start: 1, end: 2 })
  })

  it('serves the whole body without a header or for several ranges', () => {
    expect(parseByteRange(undefined, 10)).toBe('whole')
    expect(parseByteRange('bytes=0-1,3-4', 10)).toBe('whole')
  })

  it('refuses what cannot be satisfied or parsed', () => {
    expect(parseByteRange('bytes=10-', 10)).toBe('unsatisfiable')
    expect(parseByteRange('bytes=5-2', 10)).toBe('unsatisfiable')
    expect(parseByteRange('bytes=-0', 10)).toBe('unsatisfiable')
    expect(parseByteRange('bytes=0-0', 0)).toBe('unsatisfiable')
    expect(parseByteRange('items=0-1', 10)).toBe('unsatisfiable')
    expect(parseByteRange('bytes=a-b', 10)).toBe('unsatisfiable')
    expect(parseByteRange('bytes=', 10)).toBe('unsatisfiable')
  })
})
