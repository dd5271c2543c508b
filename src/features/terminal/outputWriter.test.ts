import { describe, expect, it } from 'vitest'
import { concatBytes } from '../../common/concatBytes'
import { maxWriteBytes, OutputWriter, pauseAboveBytes, writeAheadBytes } from './outputWriter'

function harness() {
  const writes: { data: Uint8Array; parsed: () => void }[] = []
  const writer = new OutputWriter((data, parsed) => writes.push({ data, parsed }))
  return { writer, writes }
}

/** The bytes of `writes` from index `from` on, as the emulator gets them. */
const writtenFrom = (writes: { data: Uint8Array }[], from: number) => [
  ...concatBytes(writes.slice(from).map((w) => w.data)),
]

describe('OutputWriter', () => {
  it('writes at once while little is unparsed', () => {
    const { writer, writes } = harness()
    writer.push(new Uint8Array([1]))
    writer.push(new Uint8Array([2, 3]))
    expect(writes.map((w) => [...w.data])).toEqual([[1], [2, 3]])
  })

  it('gathers what comes while much is unparsed, and writes it as it came once most of it is parsed', () => {
    const { writer, writes } = harness()
    const gathered = new Uint8Array([2, 3])
    writer.push(new Uint8Array(writeAheadBytes))
    writer.push(gathered)
    writer.push(new Uint8Array([4]))
    expect(writes).toHaveLength(1)
    writes[0]?.parsed()
    expect(writtenFrom(writes, 1)).toEqual([2, 3, 4])
    // Handed over as it is, not copied into a joined array.
    expect(writes[1]?.data).toBe(gathered)
  })

  it('holds the reader back while too much is unparsed, and lets it go once parsed', async () => {
    const { writer, writes } = harness()
    writer.push(new Uint8Array(pauseAboveBytes + 10))
    let released = false
    const room = writer.room().then(() => {
      released = true
    })
    await Promise.resolve()
    expect(released).toBe(false)
    // Each parsed piece lets the next one in; the reader goes on once most of it is parsed.
    for (let i = 0; i < writes.length; i++) writes[i]?.parsed()
    await room
    expect(released).toBe(true)
    expect(writer.backlog).toBe(0)
  })

  it('hands the emulator a large chunk in pieces, the chunk’s callback after its last one', () => {
    const { writer, writes } = harness()
    const parsed: number[] = []
    const big = Uint8Array.from({ length: 3 * maxWriteBytes + 5 }, (_, i) => i % 251)
    writer.push(big, 1000 + big.length, () => parsed.push(1))
    expect(writes).toHaveLength(1)
    for (let i = 0; i < writes.length; i++) {
      expect(parsed).toEqual([])
      writes[i]?.parsed()
    }
    expect(writes.map((w) => w.data.length)).toEqual([maxWriteBytes, maxWriteBytes, maxWriteBytes, 5])
    expect(parsed).toEqual([1])
    expect(concatBytes(writes.map((w) => w.data))).toEqual(big)
  })

  it('skips within a chunk already partly written, by its absolute offsets', () => {
    const { writer, writes } = harness()
    const big = Uint8Array.from({ length: 2 * maxWriteBytes }, (_, i) => i % 251)
    const parsed: string[] = []
    writer.push(big, 5000 + big.length, () => parsed.push('big'))
    writer.skipBefore(5000 + maxWriteBytes + 10)
    writes[0]?.parsed()
    expect(writes[1]?.data).toEqual(big.subarray(maxWriteBytes + 10))
    writes[1]?.parsed()
    expect(parsed).toEqual(['big'])
  })

  it('calls each chunk’s parsed callback, in order, once the emulator has parsed it', () => {
    const { writer, writes } = harness()
    const parsed: string[] = []
    writer.push(new Uint8Array(writeAheadBytes), undefined, () => parsed.push('a'))
    writer.push(new Uint8Array([2]), undefined, () => parsed.push('b'))
    writer.push(new Uint8Array([3]))
    writer.push(new Uint8Array([4]), undefined, () => parsed.push('c'))
    expect(parsed).toEqual([])
    writes[0]?.parsed()
    expect(parsed).toEqual(['a'])
    writes[1]?.parsed()
    expect(parsed).toEqual(['a', 'b'])
    writes[2]?.parsed()
    expect(parsed).toEqual(['a', 'b'])
    writes[3]?.parsed()
    expect(parsed).toEqual(['a', 'b', 'c'])
  })

  it('skips waiting output before an offset, trimming the chunk it cuts, and counts it as parsed', () => {
    const { writer, writes } = harness()
    const parsed: number[] = []
    const push = (from: number, to: number) =>
      writer.push(
        Uint8Array.from({ length: to - from }, (_, i) => (from + i) % 256),
        to,
        () => parsed.push(to),
      )
    push(0, writeAheadBytes) // written at once: the emulator has it
    push(writeAheadBytes, writeAheadBytes + 10)
    push(writeAheadBytes + 10, writeAheadBytes + 20)
    writer.push(new Uint8Array([7])) // a notice of the IDE's own, with no offset: kept
    push(writeAheadBytes + 20, writeAheadBytes + 30)
    writer.skipBefore(writeAheadBytes + 15)
    expect(parsed).toEqual([writeAheadBytes + 10])
    expect(writer.backlog).toBe(writeAheadBytes + 5 + 1 + 10)
    writes[0]?.parsed()
    expect(writtenFrom(writes, 1)).toEqual([
      ...[15, 16, 17, 18, 19].map((i) => (writeAheadBytes + i) % 256),
      7,
      ...[20, 21, 22, 23, 24, 25, 26, 27, 28, 29].map((i) => (writeAheadBytes + i) % 256),
    ])
  })

  it('has room at once when little is pending', async () => {
    const { writer } = harness()
    writer.push(new Uint8Array(100))
    await expect(writer.room()).resolves.toBeUndefined()
  })
})
