import { lineHash } from './lineHash'
import type { SearchMatch } from './textQuery'

/** Why a file's matches cannot be replaced, or its new text. */
export type TextReplacement = { text: string; count: number } | { reason: string }

/** The reason given when a matched line is not what the search saw. */
export const changedSinceSearch = 'it changed since the search'

/** One change to a text: the UTF-16 offsets it replaces, and what with. */
export interface TextEdit {
  from: number
  to: number
  text: string
}

/**
 * The edits that replace each match of `text` with what `replacementFor` makes of the text it
 * covers, last first (each leaves the offsets before it as they were). Every matched line must
 * still be what the search saw (its fingerprint): otherwise there are no edits, and the reason
 * says so. Lines are split at `\n` (a `\r` before it belongs to no line's text, as the engines
 * report lines), and a byte-order mark is not part of the first line, as ripgrep reads it.
 */
export function replacementEdits(
  text: string,
  matches: readonly SearchMatch[],
  replacementFor: (matched: string) => string,
): { edits: TextEdit[] } | { reason: string } {
  if (matches.some((m) => m.lossy)) return { reason: 'it is not UTF-8 text' }
  const starts = [text.charCodeAt(0) === 0xfeff ? 1 : 0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  const lineAt = (line: number) => {
    const start = starts[line - 1]
    if (start === undefined) return undefined
    const next = starts[line]
    let end = next === undefined ? text.length : next - 1
    if (text.charCodeAt(end - 1) === 13 && next !== undefined) end -= 1
    return { start, text: text.slice(start, end) }
  }
  const edits: TextEdit[] = []
  for (const match of matches) {
    const line = lineAt(match.line)
    if (!line || lineHash(line.text) !== match.lineHash || match.end > line.text.length)
      return { reason: changedSinceSearch }
    const from = line.start + match.start
    const to = line.start + match.end
    edits.push({ from, to, text: replacementFor(text.slice(from, to)) })
  }
  edits.sort((a, b) => b.from - a.from)
  // Overlapping matches (a list that holds one twice): the later one wins, once.
  const kept: TextEdit[] = []
  for (const edit of edits)
    if (edit.to <= (kept[kept.length - 1]?.from ?? Number.POSITIVE_INFINITY)) kept.push(edit)
  return { edits: kept }
}

/** `text` with each match replaced (see `replacementEdits`), or why it cannot be. */
export function replaceInText(
  text: string,
  matches: readonly SearchMatch[],
  replacementFor: (matched: string) => string,
): TextReplacement {
  const found = replacementEdits(text, matches, replacementFor)
  if ('reason' in found) return found
  let result = text
  for (const edit of found.edits) result = result.slice(0, edit.from) + edit.text + result.slice(edit.to)
  return { text: result, count: found.edits.length }
}
