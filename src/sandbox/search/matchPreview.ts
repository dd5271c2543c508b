import type { MatchPreview } from './textQuery'

/** Shown before a match at most (VS Code shows a little of the line's start too). */
const maxBefore = 40
/** Shown of a match and after it, together, at most: a minified file's line stays one row. */
const maxRest = 250

/**
 * What the results show of a match's line: the text before it (leading indentation dropped, at
 * most 40 characters, else cut and marked `…`), the match, and the rest, cut to 250 characters.
 * Cuts never split a surrogate pair.
 */
export function matchPreview(line: string, start: number, end: number): MatchPreview {
  let before = line.slice(0, start).trimStart()
  if (before.length > maxBefore) {
    let from = before.length - maxBefore
    if (isLowSurrogate(before.charCodeAt(from))) from++
    before = `…${before.slice(from)}`
  }
  const match = clip(line.slice(start, end), maxRest)
  const after = clip(line.slice(end), Math.max(0, maxRest - match.length))
  return { before, match, after }
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text
  let to = max
  if (isLowSurrogate(text.charCodeAt(to))) to--
  return `${text.slice(0, to)}…`
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}
