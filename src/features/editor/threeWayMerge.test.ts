import { describe, expect, it } from 'vitest'
import { mergeEdits, type TextEdit } from './threeWayMerge'

function apply(text: string, edits: TextEdit[]): string {
  let out = text
  for (const { start, end, text: inserted } of [...edits].reverse())
    out = out.slice(0, start) + inserted + out.slice(end)
  return out
}

function merged(base: string, ours: string, theirs: string): string | undefined {
  const edits = mergeEdits(base, ours, theirs)
  return edits && apply(ours, edits)
}

describe('mergeEdits', () => {
  it('brings a line added outside into a text edited elsewhere, keeping both', () => {
    const base = 'a = 1\nb = 2\nc = 3\n'
    const ours = 'a = 10\nb = 2\nc = 3\n'
    const theirs = 'a = 1\nb = 2\nc = 3\nd = 4\n'
    const edits = mergeEdits(base, ours, theirs)
    // Only the new line is touched: the edit is an insertion at the end.
    expect(edits).toEqual([{ start: ours.length, end: ours.length, text: 'd = 4\n' }])
    expect(merged(base, ours, theirs)).toBe('a = 10\nb = 2\nc = 3\nd = 4\n')
  })

  it('takes the whole outside change when ours is the base, and nothing when theirs is', () => {
    expect(merged('x\ny\n', 'x\ny\n', 'x\nz\ny\n')).toBe('x\nz\ny\n')
    expect(mergeEdits('x\ny\n', 'x\nours\n', 'x\ny\n')).toEqual([])
    expect(merged('', '', 'first\n')).toBe('first\n')
    expect(merged('gone\n', 'gone\nmine\n', '')).toBeUndefined()
  })

  it('says conflict where both changed the same line, or lines next to each other', () => {
    expect(mergeEdits('a\nb\nc\n', 'a\nB1\nc\n', 'a\nB2\nc\n')).toBeUndefined()
    expect(mergeEdits('a\nb\nc\nd\n', 'a\nB\nc\nd\n', 'a\nb\nC\nd\n')).toBeUndefined()
    // The same change on both sides is no conflict, and nothing to do.
    expect(mergeEdits('a\nb\n', 'a\nB\n', 'a\nB\n')).toEqual([])
  })

  it('keeps line breaks as they are: CRLF, and a last line without one', () => {
    expect(merged('one\r\ntwo\r\n', 'ONE\r\ntwo\r\n', 'one\r\ntwo\r\nthree\r\n')).toBe(
      'ONE\r\ntwo\r\nthree\r\n',
    )
    expect(merged('a\nb\nc', 'A\nb\nc', 'a\nb\nc\nd')).toBe('A\nb\nc\nd')
  })

  it('merges changes far apart in a long text with many equal lines', () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => (i % 3 === 0 ? '\n' : `line ${i}\n`))
    const base = lines.join('')
    const ours = [...lines.slice(0, 10), 'mine\n', ...lines.slice(10)].join('')
    const theirs = [...lines.slice(0, 1_500), ...lines.slice(1_501)].join('')
    expect(merged(base, ours, theirs)).toBe(
      [...lines.slice(0, 10), 'mine\n', ...lines.slice(10, 1_500), ...lines.slice(1_501)].join(''),
    )
  })

  it('leaves a change of thousands of lines to the conflict bar, not to a long merge', () => {
    const many = Array.from({ length: 6_000 }, (_, i) => `${i}\n`).join('')
    expect(mergeEdits('', 'mine\n', many)).toBeUndefined()
  })

  it('agrees with applying both sides’ changes, for random changes two or more lines apart', () => {
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed % n
    }
    for (let round = 0; round < 200; round++) {
      const base = Array.from({ length: 20 }, (_, i) => `${i}:${random(3)}\n`)
      // Ours changes lines below 8, theirs lines from 10 on: never the same or adjacent lines.
      const ours = [...base]
      const theirs = [...base]
      const expected = [...base]
      const mine = random(8)
      ours[mine] = `ours ${round}\n`
      expected[mine] = ours[mine] as string
      const other = 10 + random(10)
      if (random(2)) {
        theirs.splice(other, 1)
        expected.splice(other, 1)
      } else {
        theirs.splice(other, 0, `theirs ${round}\n`)
        expected.splice(other, 0, `theirs ${round}\n`)
      }
      expect(merged(base.join(''), ours.join(''), theirs.join(''))).toBe(expected.join(''))
    }
  })
})
