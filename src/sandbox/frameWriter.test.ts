import { describe, expect, it } from 'vitest'
import { FrameWriter, pauseAboveBytes } from './frameWriter'

function harness() {
  const frames: (() => void)[] = []
  const writes: { data: Uint8Array; parsed: () => void }[] = []
  const writer = new FrameWriter(
    (data, parsed) => writes.push({ data, parsed }),
    (cb) => frames.push(cb),
  )
  const runFrame = () => frames.shift()?.()
  return { writer, writes, frames, runFrame }
}

describe('FrameWriter', () => {
  it('writes at once when idle, and gathers what comes while a write is pending into the next frame', () => {
    const { writer, writes, runFrame } = harness()
    writer.push(new Uint8Array([1]))
    expect(writes.map((w) => [...w.data])).toEqual([[1]])
    writer.push(new Uint8Array([2, 3]))
    writer.push(new Uint8Array([4]))
    expect(writes).toHaveLength(1)
    runFrame()
    expect(writes.map((w) => [...w.data])).toEqual([[1], [2, 3, 4]])
  })

  it('holds the reader back while too much is unparsed, and lets it go once parsed', async () => {
    const { writer, writes, runFrame } = harness()
    writer.push(new Uint8Array(pauseAboveBytes + 10))
    runFrame()
    let released = false
    const room = writer.room().then(() => {
      released = true
    })
    await Promise.resolve()
    expect(released).toBe(false)
    writes[0]?.parsed()
    await room
    expect(released).toBe(true)
    expect(writer.backlog).toBe(0)
  })

  it('calls each chunk’s parsed callback, in order, once the write that carried it is parsed', () => {
    const { writer, writes, runFrame } = harness()
    const parsed: string[] = []
    writer.push(new Uint8Array([1]), () => parsed.push('a'))
    writer.push(new Uint8Array([2]), () => parsed.push('b'))
    writer.push(new Uint8Array([3]))
    writer.push(new Uint8Array([4]), () => parsed.push('c'))
    runFrame()
    expect(parsed).toEqual([])
    writes[0]?.parsed()
    expect(parsed).toEqual(['a'])
    writes[1]?.parsed()
    expect(parsed).toEqual(['a', 'b', 'c'])
  })

  it('has room at once when little is pending', async () => {
    const { writer } = harness()
    writer.push(new Uint8Array(100))
    await expect(writer.room()).resolves.toBeUndefined()
  })
})
