import { describe, expect, it } from 'vitest'
import { decodeLine } from './decodeLine'
import { GrepOutputParser } from './grepOutputParser'
import { lineHash } from './lineHash'
import { RipgrepJsonParser } from './ripgrepJsonParser'
import { queryRegExp } from './textMatcher'
import type { FileMatches } from './textQuery'

const encode = (text: string) => new TextEncoder().encode(text)
const bytes = (...values: number[]) => new Uint8Array(values)
const base64 = (data: Uint8Array) => btoa(String.fromCharCode(...data))

/** rg's messages for one file, as `rg --json` prints them (a line given as text, or as bytes). */
function rgFile(
  path: string,
  lines: { number: number; text?: string; raw?: Uint8Array; spans: [number, number][] }[],
) {
  const messages: unknown[] = [{ type: 'begin', data: { path: { text: path } } }]
  for (const line of lines)
    messages.push({
      type: 'match',
      data: {
        path: { text: path },
        lines: line.raw ? { bytes: base64(line.raw) } : { text: line.text },
        line_number: line.number,
        absolute_offset: 0,
        submatches: line.spans.map(([start, end]) => ({ match: { text: 'x' }, start, end })),
      },
    })
  messages.push({
    type: 'end',
    data: { path: { text: path }, binary_offset: null, stats: { bytes_searched: 99 } },
  })
  return `${messages.map((m) => JSON.stringify(m)).join('\n')}\n`
}

function parse(output: Uint8Array, chunkSizes: (i: number) => number, max = 1000) {
  const files: FileMatches[] = []
  const parser = new RipgrepJsonParser('/home/user', max, (f) => files.push(f))
  for (let at = 0, i = 0; at < output.length; i++) {
    const size = Math.max(1, chunkSizes(i))
    parser.push(output.slice(at, at + size))
    at += size
  }
  parser.end()
  return { files, parser }
}

describe('RipgrepJsonParser', () => {
  const line = 'const café = "☕ 𝒳 café"\n'
  // Byte offsets of both "café" in the UTF-8 line: é is two bytes, ☕ three, 𝒳 four.
  const first = encode('const ').length
  const second = encode('const café = "☕ 𝒳 ').length
  const output = encode(
    rgFile('./src/a.ts', [
      {
        number: 3,
        text: line,
        spans: [
          [first, first + encode('café').length],
          [second, second + encode('café').length],
        ],
      },
    ]) + rgFile('./b.txt', [{ number: 1, text: 'plain café\r\n', spans: [[6, 11]] }]),
  )

  it('gives the same files whatever the chunks, even one byte at a time (cut inside a character)', () => {
    const whole = parse(output, () => output.length).files
    expect(parse(output, () => 1).files).toEqual(whole)
    expect(parse(output, (i) => (i * 7) % 13).files).toEqual(whole)
    expect(whole.map((f) => f.path)).toEqual(['/home/user/src/a.ts', '/home/user/b.txt'])
  })

  it('turns byte offsets into UTF-16 columns, a surrogate pair counting two', () => {
    const [a] = parse(output, () => 5).files
    const text = line.slice(0, -1)
    expect(a?.matches.map((m) => [m.line, m.start, m.end])).toEqual([
      [3, text.indexOf('café'), text.indexOf('café') + 4],
      [3, text.lastIndexOf('café'), text.lastIndexOf('café') + 4],
    ])
    expect(text.slice(a?.matches[1]?.start, a?.matches[1]?.end)).toBe('café')
    expect(a?.matches[1]?.preview).toEqual({ before: 'const café = "☕ 𝒳 ', match: 'café', after: '"' })
    expect(a?.matches[0]?.lineHash).toBe(lineHash(text))
    expect(a?.size).toBe(99)
  })

  it('leaves the line break (\\r\\n too) out of the preview and the fingerprint; é is one column, two bytes', () => {
    const [, b] = parse(output, () => 64).files
    expect(b?.matches[0]).toMatchObject({
      start: 6,
      end: 10,
      preview: { after: '' },
      lineHash: lineHash('plain café'),
    })
  })

  it('decodes a line that is not UTF-8 (base64 bytes) with a replacement character, columns after it right', () => {
    // "caf\xe9 hello": Latin-1, as rg reports it.
    const raw = bytes(0x63, 0x61, 0x66, 0xe9, 0x20, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a)
    const out = encode(rgFile('./latin1.txt', [{ number: 1, raw, spans: [[5, 10]] }]))
    const [file] = parse(out, () => 3).files
    expect(file?.matches[0]).toMatchObject({
      start: 5,
      end: 10,
      lossy: true,
      preview: { before: 'caf\ufffd ', match: 'hello', after: '' },
    })
  })

  it('reads a path with a newline and quotes in it, and one that is not UTF-8', () => {
    const hostile = './we"ird\nname $(x).txt'
    const out = encode(
      rgFile(hostile, [{ number: 1, text: 'hit\n', spans: [[0, 3]] }]) +
        `${JSON.stringify({ type: 'begin', data: { path: { bytes: base64(bytes(0x2e, 0x2f, 0xff, 0x41)) } } })}\n${JSON.stringify({ type: 'match', data: { path: {}, lines: { text: 'hit\n' }, line_number: 2, submatches: [{ start: 0, end: 3 }] } })}\n${JSON.stringify({ type: 'end', data: {} })}\n`,
    )
    const files = parse(out, () => 4).files
    expect(files.map((f) => f.path)).toEqual(['/home/user/we"ird\nname $(x).txt', '/home/user/\ufffdA'])
  })

  it('stops at the cap inside a file, handing over what it has, and ignores the rest', () => {
    const many = rgFile(
      './many.txt',
      Array.from({ length: 10 }, (_, i) => ({
        number: i + 1,
        text: 'aa aa\n',
        spans: [[0, 2] as [number, number], [3, 5] as [number, number]],
      })),
    )
    const { files, parser } = parse(
      encode(many + rgFile('./later.txt', [{ number: 1, text: 'aa\n', spans: [[0, 2]] }])),
      () => 100,
      5,
    )
    expect(parser.limitHit).toBe(true)
    expect(files).toHaveLength(1)
    expect(files[0]?.matches).toHaveLength(5)
    expect(files[0]?.size).toBeUndefined()
  })

  it('skips what is not one of its messages (a login profile that printed something) and a last line without \\n', () => {
    const text = `hello from .profile\n${rgFile('./a', [{ number: 1, text: 'x\n', spans: [[0, 1]] }]).trimEnd()}`
    expect(parse(encode(text), () => 10).files).toHaveLength(1)
  })

  it('leaves out the files it is told to (searched in the page instead) before they count', () => {
    const files: FileMatches[] = []
    const parser = new RipgrepJsonParser(
      '/h',
      1,
      (f) => files.push(f),
      (path) => path !== '/h/open.ts',
    )
    parser.push(
      encode(
        rgFile('./open.ts', [{ number: 1, text: 'x\n', spans: [[0, 1]] }]) +
          rgFile('./closed.ts', [{ number: 1, text: 'x\n', spans: [[0, 1]] }]),
      ),
    )
    parser.end()
    expect(files.map((f) => f.path)).toEqual(['/h/closed.ts'])
  })
})

describe('decodeLine', () => {
  it('maps offsets inside multi-byte text and past its end', () => {
    expect(decodeLine(encode('ä𝒳b'), [0, 2, 6, 7, 99])).toEqual({
      text: 'ä𝒳b',
      offsets: [0, 1, 3, 4, 4],
      lossy: false,
    })
  })

  it('turns each byte that starts no valid sequence into one U+FFFD (a cut sequence, an overlong form)', () => {
    const decoded = decodeLine(bytes(0x61, 0xe2, 0x82, 0x62, 0xc0, 0xaf, 0x63), [3, 6])
    expect(decoded.text).toBe('a\ufffd\ufffdb\ufffd\ufffdc')
    expect(decoded.offsets).toEqual([3, 6])
    expect(decoded.lossy).toBe(true)
  })
})

describe('GrepOutputParser', () => {
  const regex = queryRegExp({ pattern: 'café', matchCase: false })
  const record = (path: string, line: number, text: string) => [
    ...encode(path),
    0,
    ...encode(`${line}:${text}\n`),
  ]

  it('reads NUL-ended paths (a newline in a name) and finds the columns in the page, across any chunks', () => {
    const out = new Uint8Array([
      ...record('/h/new\nline.txt', 2, 'un Café, deux café'),
      ...record('/h/new\nline.txt', 5, 'café'),
      ...record('/h/b.txt', 1, 'x café\r'),
    ])
    for (const size of [1, 3, out.length]) {
      const files: FileMatches[] = []
      const parser = new GrepOutputParser(regex, 100, (f) => files.push(f))
      for (let at = 0; at < out.length; at += size) parser.push(out.slice(at, at + size))
      parser.end()
      expect(files.map((f) => [f.path, f.matches.map((m) => [m.line, m.start, m.end])])).toEqual([
        [
          '/h/new\nline.txt',
          [
            [2, 3, 7],
            [2, 14, 18],
            [5, 0, 4],
          ],
        ],
        ['/h/b.txt', [[1, 2, 6]]],
      ])
    }
  })

  it('takes the whole line as the match where the page cannot find it (a regex dialect apart)', () => {
    const files: FileMatches[] = []
    const parser = new GrepOutputParser(undefined, 100, (f) => files.push(f))
    parser.push(new Uint8Array(record('/h/a', 7, 'some line')))
    parser.end()
    expect(files[0]?.matches[0]).toMatchObject({ line: 7, start: 0, end: 9 })
  })
})
