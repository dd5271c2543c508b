import { describe, expect, it } from 'vitest'
import { blockBytes, chunkOverheadBytes, type OutputChunk, type OutputKind, OutputLog } from './outputLog'

const KiB = 1024
const bytes = (text: string) => Buffer.from(text)
const textOf = (chunks: OutputChunk[]) => chunks.map((c) => Buffer.from(c.data).toString()).join('')

/** Offsets that follow on from each other, from `start`: what a replay relies on. */
function expectContiguous(chunks: OutputChunk[], start: number) {
  let at = start
  for (const chunk of chunks) {
    expect(chunk.offset).toBe(at)
    at += chunk.data.length
  }
  return at
}

describe('OutputLog', () => {
  it('keeps a day of keystroke echoes in a few shared blocks, not a buffer each', () => {
    const log = new OutputLog(1024 * KiB)
    let typed = ''
    for (let i = 0; i < 50_000; i++) {
      const key = String.fromCharCode(97 + (i % 26))
      typed += key
      // Each echo as the terminal hands it over: a buffer of its own.
      log.append('pty', bytes(key))
    }
    const held = log.since(0)
    expect(textOf(held)).toBe(typed)
    expect(expectContiguous(held, 0)).toBe(50_000)
    // 50,000 echoes in ceil(50,000 / 16 KiB) chunks, none holding on to the echo's own buffer.
    expect(held.length).toBe(Math.ceil(50_000 / blockBytes))
    expect(new Set(held.map((c) => c.data.buffer)).size).toBe(held.length)
    expect(held.every((c) => c.data.buffer.byteLength === blockBytes)).toBe(true)
  })

  it('replays exactly what came, in order, across blocks, kinds and large output', () => {
    const log = new OutputLog(1024 * KiB)
    const sent: [OutputKind, string][] = []
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    for (let i = 0; i < 400; i++) {
      const kind: OutputKind = random() < 0.5 ? 'stdout' : 'stderr'
      const size = random() < 0.1 ? 4 * KiB + Math.floor(random() * 20 * KiB) : 1 + Math.floor(random() * 600)
      const text = String.fromCharCode(65 + (i % 26)).repeat(size)
      sent.push([kind, text])
      log.append(kind, bytes(text))
    }
    const held = log.since(0)
    const total = sent.reduce((n, [, text]) => n + text.length, 0)
    expect(expectContiguous(held, 0)).toBe(total)
    expect(log.end).toBe(total)
    // Same bytes in the same order, each under the kind it came as.
    const byKind = (kind: OutputKind, pairs: [OutputKind, string][]) =>
      pairs
        .filter(([k]) => k === kind)
        .map(([, t]) => t)
        .join('')
    const heldPairs = held.map((c): [OutputKind, string] => [c.kind, Buffer.from(c.data).toString()])
    expect(heldPairs.map(([, t]) => t).join('')).toBe(sent.map(([, t]) => t).join(''))
    for (const kind of ['stdout', 'stderr'] as const) expect(byKind(kind, heldPairs)).toBe(byKind(kind, sent))
    // Copying never makes a chunk larger than envd's PTY chunk.
    expect(held.every((c) => c.data.length <= Math.max(blockBytes, 24 * KiB))).toBe(true)
  })

  it('cuts the first chunk of a replay that starts inside it, and never changes a chunk it handed out', () => {
    const log = new OutputLog(1024 * KiB)
    for (const key of 'hello') log.append('pty', bytes(key))
    const before = log.since(0)
    log.append('pty', bytes(' world'))
    expect(textOf(before)).toBe('hello')
    const replay = log.since(3)
    expect(replay[0]?.offset).toBe(3)
    expect(textOf(replay)).toBe('lo world')
  })

  it('holds the newest output up to its capacity, and says where it starts', () => {
    const log = new OutputLog(64 * KiB)
    for (let i = 0; i < 40; i++) log.append('stdout', new Uint8Array(8 * KiB).fill(i))
    const held = log.since(0)
    const kept = held.reduce((n, c) => n + c.data.length, 0)
    expect(log.start).toBe(log.end - kept)
    expect(held[0]?.offset).toBe(log.start)
    expect(kept + held.length * chunkOverheadBytes).toBeLessThanOrEqual(64 * KiB)
    expect(kept).toBeGreaterThan(48 * KiB)
    expect(held.at(-1)?.data[0]).toBe(39)
  })

  it('is bounded in chunks too: one-byte output alternating between stdout and stderr', () => {
    const log = new OutputLog(64 * KiB)
    for (let i = 0; i < 100_000; i++) log.append(i % 2 ? 'stderr' : 'stdout', bytes('x'))
    const held = log.since(0)
    // Each byte is a chunk of its own (the kind changes every time), so the overhead bounds them.
    expect(held.length).toBeLessThanOrEqual((64 * KiB) / (1 + chunkOverheadBytes))
    expect(expectContiguous(held, log.start)).toBe(100_000)
  })
})
