import { describe, expect, it } from 'vitest'
import { randomId } from './randomId'

describe('randomId', () => {
  it('makes version 4 UUIDs without crypto.randomUUID (missing on plain http over a network)', () => {
    const ids = new Set(Array.from({ length: 1000 }, randomId))
    expect(ids.size).toBe(1000)
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
