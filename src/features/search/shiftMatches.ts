import { lineHash } from '../../sandbox/search/lineHash'
import { matchPreview } from '../../sandbox/search/matchPreview'
import type { TextEdit } from '../../sandbox/search/replaceInText'
import type { SearchMatch } from '../../sandbox/search/textQuery'

/** Where each line of `text` starts (a byte-order mark is not part of the first). */
function lineStarts(text: string): number[] {
  const starts = [text.charCodeAt(0) === 0xfeff ? 1 : 0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

/** The line holding `offset` (from 1) and where that line starts. */
function lineOf(starts: readonly number[], offset: number): { line: number; start: number } {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if ((starts[mid] as number) <= offset) lo = mid
    else hi = mid - 1
  }
  return { line: lo + 1, start: starts[lo] as number }
}

function lineText(text: string, starts: readonly number[], line: number): string {
  const start = starts[line - 1] as number
  const next = starts[line]
  let end = next === undefined ? text.length : next - 1
  if (next !== undefined && text.charCodeAt(end - 1) === 13) end -= 1
  return text.slice(start, end)
}

/**
 * Matches of `oldText` that a replace left alone, moved to where they are in `newText` (which is
 * `oldText` with `edits` applied): an edit before a match on its line moves its columns, one that
 * adds or removes line breaks moves its line; its line's fingerprint and preview are made again.
 */
export function shiftMatches(
  oldText: string,
  edits: readonly TextEdit[],
  remaining: readonly SearchMatch[],
  newText: string,
): SearchMatch[] {
  const oldStarts = lineStarts(oldText)
  const newStarts = lineStarts(newText)
  const ordered = [...edits].sort((a, b) => a.from - b.from)
  const moved = (offset: number) => {
    let shift = 0
    for (const edit of ordered) {
      if (edit.to > offset) break
      shift += edit.text.length - (edit.to - edit.from)
    }
    return offset + shift
  }
  return remaining.map((match) => {
    const base = oldStarts[match.line - 1] ?? 0
    const from = moved(base + match.start)
    const to = from + (match.end - match.start)
    const { line, start } = lineOf(newStarts, from)
    const text = lineText(newText, newStarts, line)
    const shifted: SearchMatch = {
      line,
      start: from - start,
      end: to - start,
      preview: matchPreview(text, from - start, to - start),
      lineHash: lineHash(text),
    }
    return shifted
  })
}
