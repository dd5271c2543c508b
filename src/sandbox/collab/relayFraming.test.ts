import { describe, expect, it } from 'vitest'
import { chunkBytes, encodeMessage, maxMessageBytes, type RelayMessage, RelayReader } from './relayFraming'

function bytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed) & 0xff
  return out
}
/** Equal bytes, compared as one buffer (an element-wise deep equality of 100,000 numbers is slow). */
const same = (a: Uint8Array | undefined, b: Uint8Array) => !!a && Buffer.from(a).equals(Buffer.from(b))
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

function listening() {
  const got: RelayMessage[] = []
  return { got, reader: new RelayReader((m) => got.push(m)) }
}

describe('relay framing', () => {
  it('carries a message whole, whatever its topic, however the output is cut', () => {
    const { got, reader } = listening()
    const topic = 'doc:/home/user/a file\nwith ⏎ and %.txt'
    const stream = concat(encodeMessage('pageA', 1, topic, bytes(200_000)))
    // Cut into pieces of every size from 1 byte up.
    for (let at = 0, size = 1; at < stream.length; at += size, size = (size * 7 + 3) % 5000 || 1)
      reader.push(stream.subarray(at, at + size))
    expect(got).toHaveLength(1)
    expect(got[0]?.topic).toBe(topic)
    expect(got[0]?.sender).toBe('pageA')
    expect(same(got[0]?.payload, bytes(200_000))).toBe(true)
    expect(reader.dropped).toBe(0)
  })

  it('puts together chunks of several senders interleaved line by line', () => {
    const { got, reader } = listening()
    const a = encodeMessage('a', 7, 't', bytes(chunkBytes * 3, 1))
    const b = encodeMessage('b', 7, 't', bytes(chunkBytes * 2 + 5, 2))
    for (let i = 0; i < 3; i++) {
      if (a[i]) reader.push(a[i] as Uint8Array)
      if (b[i]) reader.push(b[i] as Uint8Array)
    }
    expect(got.map((m) => m.sender)).toEqual(['a', 'b'])
    expect(same(got[0]?.payload, bytes(chunkBytes * 3, 1))).toBe(true)
    expect(same(got[1]?.payload, bytes(chunkBytes * 2 + 5, 2))).toBe(true)
  })

  it('drops garbage, forged and oversized lines, and goes on with the next good one', () => {
    const { got, reader } = listening()
    const garbage = [
      'hello\n',
      'Y1 a 1 0/1 t !!!notbase64\n',
      'Y1 bad/name 1 0/1 t AAAA\n',
      'Y1 a 1 2/1 t AAAA\n',
      'Y1 a 1 0/999999 t AAAA\n',
      'Y1 a x 0/1 t AAAA\n',
      'Y1 a 1 0/1 %E0%A4%A t AAAA\n',
      `Y1 a 1 0/1 t ${'A'.repeat(200_000)}\n`,
      `${'x'.repeat(300_000)}`,
      '\n',
    ]
    for (const g of garbage) reader.push(new TextEncoder().encode(g))
    expect(got).toEqual([])
    expect(reader.dropped).toBe(garbage.length - 1)
    for (const line of encodeMessage('a', 2, 'ok', bytes(10))) reader.push(line)
    expect(got.map((m) => m.topic)).toEqual(['ok'])
  })

  it('keeps a bounded number of messages half put together', () => {
    const { got, reader } = listening()
    const [first, second] = encodeMessage('flood', 0, 't', bytes(chunkBytes + 1)) as [Uint8Array, Uint8Array]
    // The same first chunk under 300 ids: each opens a message that never completes.
    const withId = (line: Uint8Array, id: number) =>
      new TextEncoder().encode(new TextDecoder().decode(line).replace('Y1 flood 0 ', `Y1 flood ${id} `))
    for (let id = 0; id < 300; id++) reader.push(withId(first, id))
    const last = withId(second, 299)
    reader.push(last)
    expect(got).toHaveLength(1)
    expect(reader.dropped).toBe(300 - 64)
  })

  it('refuses to encode a message over its bound or a sender name that would break the line', () => {
    expect(() => encodeMessage('a', 1, 't', new Uint8Array(maxMessageBytes + 1))).toThrow(
      /over the relay's bound/,
    )
    expect(() => encodeMessage('a b', 1, 't', bytes(1))).toThrow(/not a sender name/)
  })
})
