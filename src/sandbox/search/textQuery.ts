/** What to look for across the workspace, as the Search view asks it. */
export interface TextQuery {
  /** The text, or a regular expression (Rust's syntax, as ripgrep reads it) when `isRegex`. */
  pattern: string
  isRegex?: boolean
  /** Case-sensitive; by default case is ignored, as in VS Code. */
  matchCase?: boolean
  /** Only where the pattern is a whole word. */
  wholeWord?: boolean
  /**
   * "Files to include" and "files to exclude": globs as VS Code reads them (comma-separated in the
   * boxes, one per item here): `*.ts`, `src` (a folder, anywhere), `./src` (from the top only).
   */
  include?: readonly string[]
  exclude?: readonly string[]
  /**
   * Also search what .gitignore (and .ignore) leave out, and the home's own dot-folders (.cache,
   * .npm, .local: tools' state, not a project's); a project's dotfiles are searched either way.
   */
  includeIgnored?: boolean
  /** Stops after this many matches and says so (`limitHit`); 20,000 by default, as VS Code. */
  maxResults?: number
}

/** As VS Code caps a search. */
export const defaultMaxResults = 20_000

/** One match of a file, in the editor's terms, with what the results show of its line. */
export interface SearchMatch {
  /** Its line, from 1. */
  line: number
  /** Where it starts and ends in its line, in UTF-16 code units from 0 (Monaco's column is one more). */
  start: number
  end: number
  /** The part of the line the results show: before, the match itself, after, each clipped. */
  preview: MatchPreview
  /** A fingerprint of the whole line (lineHash), to tell at replace time that it is still there. */
  lineHash: string
  /** The line is not valid UTF-8: shown with replacement characters, and never replaced. */
  lossy?: boolean
}

/** A match's line as shown: `before` and `after` are cut to a sensible length, marked by `…`. */
export interface MatchPreview {
  before: string
  match: string
  after: string
}

/** A file with matches, by absolute path. */
export interface FileMatches {
  path: string
  matches: SearchMatch[]
  /**
   * The file's size when it was searched, where the engine says (ripgrep does): with the matched
   * lines' fingerprints, how a replace tells that the file has changed since.
   */
  size?: number
  /** Its matches are from the editor's unsaved text, not from the disk. */
  unsaved?: boolean
}

/** Splits what a "files to include/exclude" box holds into globs: at commas, except inside braces (`*.{ts,tsx}`). */
export function splitGlobs(text: string): string[] {
  const globs: string[] = []
  let depth = 0
  let current = ''
  for (const c of text) {
    if (c === '{') depth++
    else if (c === '}') depth = Math.max(0, depth - 1)
    if (c === ',' && depth === 0) {
      globs.push(current)
      current = ''
    } else {
      current += c
    }
  }
  globs.push(current)
  return globs.map((glob) => glob.trim()).filter((glob) => glob.length > 0)
}
