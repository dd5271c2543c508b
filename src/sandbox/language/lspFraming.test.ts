// LSP's framing over the byte chunks a runtime delivers (it sends output in pieces of at most
// 32 KiB): headers, bodies and multi-byte UTF-8 split anywhere, read by vscode-jsonrpc's reader,
// and the guard that bounds what it would buffer.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FrameGuard } from './frameGuard'
import { connectOverStdio } from './lspConnection'

const encoder = new TextEncoder()
const frame = (message: unknown) => {
  const body = encoder.encode(JSON.stringify(message))
  const header = encoder.encode(`Content-Length: ${body.length}\r\n\r\n`)
  const out = new Uint8Array(header.length + body.length)
  out.set(header)
  out.set(body, header.length)
  return out
}

/** `bytes` cut at the given places. */
const cut = (bytes: Uint8Array, at: number[]) => {
  const points = [...new Set(at.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b)
  const pieces: Uint8Array[] = []
  let from = 0
  for (const p of [...points, bytes.length]) {
    pieces.push(bytes.subarray(from, p))
    from = p
  }
  return pieces
}

describe('LSP messages over byte chunks', () => {
  it('arrive whole and in order however the bytes are cut, UTF-8 split included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 200 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (texts, at) => {
          const { connection, output } = connectOverStdio({ write: () => {} })
          const seen: string[] = []
          connection.onNotification('test/text', (params: { text: string }) => {
            seen.push(params.text)
          })
          connection.listen()
          const bytes = texts.map((text) => frame({ jsonrpc: '2.0', method: 'test/text', params: { text } }))
          const all = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0))
          let offset = 0
          for (const b of bytes) {
            all.set(b, offset)
            offset += b.length
          }
          for (const piece of cut(all, at)) output.data(piece)
          // The reader hands messages over on later turns of the event loop.
          for (let i = 0; i < 50 && seen.length < texts.length; i++)
            await new Promise((r) => setTimeout(r, 1))
          connection.dispose()
          expect(seen).toEqual(texts)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('go out framed, a header then its body', async () => {
    const written: Uint8Array[] = []
    const { connection } = connectOverStdio({ write: (bytes) => written.push(bytes) })
    connection.listen()
    await connection.sendNotification('test/hello', { text: 'é' })
    const text = new TextDecoder().decode(Buffer.concat(written))
    expect(text).toMatch(/^Content-Length: (\d+)\r\n\r\n\{.*"text":"é".*\}$/s)
    const length = Number(/Content-Length: (\d+)/.exec(text)?.[1])
    expect(length).toBe(encoder.encode(text.slice(text.indexOf('{'))).length)
    connection.dispose()
  })
})

describe('FrameGuard', () => {
  it('lets well-framed messages through in any chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 300 }), { maxLength: 5 }),
        fc.array(fc.nat()),
        (texts, at) => {
          const guard = new FrameGuard(1024 * 1024)
          const all = Buffer.concat(texts.map((text) => frame({ text })))
          for (const piece of cut(all, at)) expect(guard.check(piece)).toBeUndefined()
        },
      ),
    )
  })

  it('stops a message over the limit at its header, before any of its body', () => {
    const guard = new FrameGuard(1000)
    expect(guard.check(encoder.encode('Content-Length: 104857600\r\n'))).toBeUndefined()
    expect(guard.check(encoder.encode('\r\n'))).toBe('it sent a message of 100 MB, over the limit of 0.00 MB')
  })

  it('stops text that is not LSP, saying what it was', () => {
    const guard = new FrameGuard(1000, 64)
    expect(guard.check(encoder.encode('Traceback (most recent call last):\n  File "x"\n'.repeat(3)))).toBe(
      'it wrote 64 bytes that are not an LSP header: Traceback (most recent call last):⏎  File "x"⏎Traceback (most rec',
    )
    const noLength = new FrameGuard(1000)
    expect(noLength.check(encoder.encode('Content-Type: x\r\n\r\n'))).toContain('without Content-Length')
  })
})
