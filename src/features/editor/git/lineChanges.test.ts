import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lineChanges } from './lineChanges'

const lines = (...l: string[]) => `${l.join('\n')}\n`

/** The longest common subsequence of two lists, the slow and obvious way. */
function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0)
  for (const x of a) {
    let diagonal = 0
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1] as number)
      diagonal = above
    }
  }
  return row[b.length] as number
}

describe('lineChanges', () => {
  it('finds nothing in the same text, whatever its line ends', () => {
    expect(lineChanges(lines('a', 'b'), lines('a', 'b'))).toEqual([])
    expect(lineChanges('a\r\nb\r\n', 'a\nb\n')).toEqual([])
  })

  it('marks added lines, changed lines and where lines were removed', () => {
    expect(lineChanges(lines('a', 'b', 'c'), lines('a', 'new', 'b', 'c'))).toEqual([
      { kind: 'added', startLine: 2, endLine: 2 },
    ])
    expect(lineChanges(lines('a', 'b', 'c'), lines('a', 'B', 'c'))).toEqual([
      { kind: 'changed', startLine: 2, endLine: 2 },
    ])
    expect(lineChanges(lines('a', 'b', 'c', 'd'), lines('a', 'd'))).toEqual([
      { kind: 'removed', startLine: 1, endLine: 1 },
    ])
  })

  it('says lines removed at the very top are gone before line 1', () => {
    expect(lineChanges(lines('a', 'b', 'c'), lines('c'))).toEqual([
      { kind: 'removed', startLine: 0, endLine: 0 },
    ])
  })

  it('keeps separate edits apart, in order', () => {
    const before = lines('1', '2', '3', '4', '5', '6', '7', '8')
    const after = lines('0', '1', '2', 'three', '4', '6', '7', '8', '9')
    expect(lineChanges(before, after)).toEqual([
      { kind: 'added', startLine: 1, endLine: 1 },
      { kind: 'changed', startLine: 4, endLine: 4 },
      { kind: 'removed', startLine: 5, endLine: 5 },
      { kind: 'added', startLine: 9, endLine: 9 },
    ])
  })

  it('marks a whole new file as added, and an emptied one as removed', () => {
    expect(lineChanges('', lines('a', 'b'))).toEqual([{ kind: 'added', startLine: 1, endLine: 2 }])
    expect(lineChanges(lines('a', 'b'), '')).toEqual([{ kind: 'removed', startLine: 0, endLine: 0 }])
  })

  it('leaves unmarked exactly as many lines as the two texts share at most (an optimal diff)', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 30 })
    fc.assert(
      fc.property(text, text, (a, b) => {
        const changes = lineChanges(a.join('\n'), b.join('\n'))
        const marked = changes.reduce(
          (n, c) => n + (c.kind === 'removed' ? 0 : c.endLine - c.startLine + 1),
          0,
        )
        const bLines = b.join('\n').split('\n')
        expect(bLines.length - marked).toBe(lcs(a.join('\n').split('\n'), bLines))
        // In order, apart, and within the buffer.
        for (const [i, c] of changes.entries()) {
          expect(c.startLine).toBeGreaterThanOrEqual(c.kind === 'removed' ? 0 : 1)
          expect(c.endLine).toBeLessThanOrEqual(bLines.length)
          const next = changes[i + 1]
          if (next) expect(next.startLine).toBeGreaterThan(c.endLine - (next.kind === 'removed' ? 1 : 0))
        }
      }),
      { numRuns: 500 },
    )
  })

  it('answers quickly for a long file rewritten from end to end', () => {
    const before = Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join('\n')
    const after = Array.from({ length: 50_000 }, (_, i) => `other ${i}`).join('\n')
    const started = performance.now()
    expect(lineChanges(before, after)).toEqual([{ kind: 'changed', startLine: 1, endLine: 50_000 }])
    expect(performance.now() - started).toBeLessThan(5000)
  })
})
