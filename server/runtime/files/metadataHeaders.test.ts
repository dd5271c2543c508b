import { describe, expect, it } from 'vitest'
import { FilesError } from './filesError'
import { metadataFromHeaders } from './metadataHeaders'

function rejects(headers: Record<string, string>): FilesError {
  try {
    metadataFromHeaders(headers)
  } catch (err) {
    if (err instanceof FilesError) return err
    throw err
  }
  throw new Error('expected a FilesError')
}

describe('metadataFromHeaders', () => {
  it('takes X-Metadata-* headers, key lowercased by HTTP', () => {
    expect(
      metadataFromHeaders({ 'x-metadata-owner': 'alice', 'x-metadata-run-id': '42', 'content-type': 'x' }),
    ).toEqual({ owner: 'alice', 'run-id': '42' })
    expect(metadataFromHeaders({})).toEqual({})
  })

  it('refuses bad keys and values with 400', () => {
    expect(rejects({ 'x-metadata-': 'v' }).status).toBe(400)
    expect(rejects({ 'x-metadata-k': 'caf\u00e9' }).status).toBe(400)
    expect(rejects({ 'x-metadata-k': 'tab\there' }).status).toBe(400)
    expect(rejects({ [`x-metadata-${'k'.repeat(247)}`]: 'v' }).status).toBe(400)
    expect(metadataFromHeaders({ [`x-metadata-${'k'.repeat(246)}`]: 'v' })).toHaveProperty('k'.repeat(246))
  })

  it('caps the total size', () => {
    const headers: Record<string, string> = {}
    for (let i = 0; i < 5; i++) headers[`x-metadata-k${i}`] = 'v'.repeat(900)
    expect(rejects(headers).message).toContain('4096')
  })
})
