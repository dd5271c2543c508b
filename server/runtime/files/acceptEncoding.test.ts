import { describe, expect, it } from 'vitest'
import { negotiateEncoding } from './acceptEncoding'

describe('negotiateEncoding', () => {
  it('gives browsers and gzip-capable clients gzip', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('gzip')
    expect(negotiateEncoding('gzip')).toBe('gzip')
    expect(negotiateEncoding('*')).toBe('gzip')
    expect(negotiateEncoding('GZIP;q=0.5')).toBe('gzip')
  })

  it('falls back to identity when gzip is not wanted or less preferred', () => {
    expect(negotiateEncoding(undefined)).toBe('identity')
    expect(negotiateEncoding('')).toBe('identity')
    expect(negotiateEncoding('identity')).toBe('identity')
    expect(negotiateEncoding('br')).toBe('identity')
    expect(negotiateEncoding('gzip;q=0')).toBe('identity')
    expect(negotiateEncoding('gzip;q=0.2, identity;q=0.8')).toBe('identity')
  })

  it('refuses when both are excluded', () => {
    expect(negotiateEncoding('identity;q=0')).toBeUndefined()
    expect(negotiateEncoding('*;q=0')).toBeUndefined()
    expect(negotiateEncoding('br, *;q=0')).toBeUndefined()
  })
})
