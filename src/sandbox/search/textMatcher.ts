import { lineHash } from './lineHash'
import { matchPreview } from './matchPreview'
import type { SearchMatch, TextQuery } from './textQuery'

/** A letter, a digit or an underscore in any script: what a word is made of, as ripgrep's `-w` sees it. */
const wordChar = '[\\p{L}\\p{N}_]'

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/**
 * The query as a JavaScript regular expression (global, Unicode), for text the page holds (an
 * unsaved file) and for the columns grep does not report. A regex the page cannot read (Rust's
 * syntax differs in places: `(?i)`, `\pL`) throws a SyntaxError; callers decide what that means.
 */
export function queryRegExp(query: TextQuery): RegExp {
  let source = query.isRegex ? query.pattern : escapeRegExp(query.pattern)
  if (query.wholeWord) source = `(?<!${wordChar})(?:${source})(?!${wordChar})`
  return new RegExp(source, `gu${query.matchCase ? '' : 'i'}`)
}

/**
 * The matches of `regex` in `text`, line by line (as ripgrep searches: no match spans lines),
 * at most `max`; empty matches are skipped.
 */
export function findInText(text: string, regex: RegExp, max: number): SearchMatch[] {
  const matches: SearchMatch[] = []
  let lineStart = 0
  for (let line = 1; lineStart <= text.length && matches.length < max; line++) {
    const newline = text.indexOf('\n', lineStart)
    const lineEnd = newline === -1 ? text.length : newline
    let lineText = text.slice(lineStart, lineEnd)
    if (lineText.endsWith('\r')) lineText = lineText.slice(0, -1)
    matches.push(...findInLine(lineText, line, regex, max - matches.length))
    if (newline === -1) break
    lineStart = newline + 1
  }
  return matches
}

/** The matches of `regex` in one line (its break left out), at most `max`. */
export function findInLine(lineText: string, line: number, regex: RegExp, max: number): SearchMatch[] {
  const matches: SearchMatch[] = []
  let hash: string | undefined
  regex.lastIndex = 0
  for (let m = regex.exec(lineText); m && matches.length < max; m = regex.exec(lineText)) {
    if (m[0].length === 0) {
      // Step over a character (a whole surrogate pair), or an empty match would loop forever.
      regex.lastIndex += (lineText.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1
      continue
    }
    hash ??= lineHash(lineText)
    const start = m.index
    const end = start + m[0].length
    matches.push({ line, start, end, preview: matchPreview(lineText, start, end), lineHash: hash })
  }
  return matches
}

/**
 * What one match becomes, as VS Code replaces: the text as typed for a plain query; for a regex,
 * `$1`, `$&` and `\n`, `\t` stand for groups and characters (the match is matched again in the page
 * to fill them; where the page cannot read the regex, the text is taken as typed).
 */
export function replacementFor(matched: string, query: TextQuery, replaceWith: string): string {
  if (!query.isRegex) return replaceWith
  const text = replaceWith.replace(/\\(\\|n|t)/g, (_, c: string) =>
    c === 'n' ? '\n' : c === 't' ? '\t' : '\\',
  )
  let regex: RegExp
  try {
    regex = new RegExp(`^(?:${query.pattern})$`, `u${query.matchCase ? '' : 'i'}`)
  } catch {
    return text
  }
  return regex.test(matched) ? matched.replace(regex, text) : text
}
