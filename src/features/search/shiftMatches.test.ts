import { describe, expect, it } from 'vitest'
import { replacementEdits } from '../../sandbox/search/replaceInText'
import { findInText, queryRegExp } from '../../sandbox/search/textMatcher'
import { shiftMatches } from './shiftMatches'

describe('shiftMatches', () => {
  const text = 'foo bar foo\r\nx foo\n'
  const found3 = findInText(text, queryRegExp({ pattern: 'foo' }), 10)
  const [a, b, c] = found3
  if (!a || !b || !c) throw new Error('three matches expected')

  it('moves the matches after a replaced one on its line, and keeps the others', () => {
    const found = replacementEdits(text, [a], () => 'longer')
    if ('reason' in found) throw new Error(found.reason)
    const after = 'longer bar foo\r\nx foo\n'
    const shifted = shiftMatches(text, found.edits, [b, c], after)
    expect(shifted.map((m) => [m.line, m.start, m.end])).toEqual([
      [1, 11, 14],
      [2, 2, 5],
    ])
    // Their lines are the new ones: a later replace of them finds them there.
    const again = replacementEdits(after, shifted, () => 'F')
    expect(again).toEqual({
      edits: [
        { from: 18, to: 21, text: 'F' },
        { from: 11, to: 14, text: 'F' },
      ],
    })
  })

  it('moves a match down when a replacement adds a line break before it', () => {
    const found = replacementEdits(text, [a], () => 'one\ntwo')
    if ('reason' in found) throw new Error(found.reason)
    const after = 'one\ntwo bar foo\r\nx foo\n'
    expect(
      shiftMatches(text, found.edits, [b], after).map((m) => [m.line, m.start, m.preview.match]),
    ).toEqual([[2, 8, 'foo']])
  })
})
