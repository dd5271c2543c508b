import { describe, expect, it } from 'vitest'
import { envelope } from '../runtime/testing/wire'
import { EnvelopeBoundary, isConnectStream } from './envelopeBoundary'

describe('EnvelopeBoundary', () => {
  const stream = Buffer.concat([
    envelope(new Uint8Array(300_000)),
    envelope(''),
    envelope('{"event":{}}'),
    envelope('end', 2),
  ])
  const ends = new Set<number>()
  for (let at = 0, i = 0; i < 4; i++) {
    at += 5 + stream.readUInt32BE(at + 1)
    ends.add(at)
  }

  it('says true exactly where an envelope ends, however the pieces cut the stream', () => {
    for (const pieceBytes of [1, 3, 5, 7, 4096, 65_536, 300_005, stream.length]) {
      const boundary = new EnvelopeBoundary()
      for (let at = 0; at < stream.length; at += pieceBytes) {
        const end = Math.min(at + pieceBytes, stream.length)
        expect(boundary.feed(stream.subarray(at, end)), `pieces of ${pieceBytes}, to ${end}`).toBe(
          ends.has(end),
        )
      }
    }
  })

  it('knows a Connect stream by its content type', () => {
    expect(isConnectStream('application/connect+proto')).toBe(true)
    expect(isConnectStream('application/connect+json; charset=utf-8')).toBe(true)
    expect(isConnectStream('application/json')).toBe(false)
    expect(isConnectStream(undefined)).toBe(false)
  })
})
