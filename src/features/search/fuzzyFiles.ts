/**
 * Go to File's matching and ranking, as VS Code's quick open ranks: the typed letters must appear
 * in order (case ignored); a match inside the file's name beats one spread over its folders; runs
 * of letters in a row, and letters at the start of a name, a path segment, a word (`_`, `-`, `.`)
 * or a camelCase hump, score higher; shorter paths break ties; files opened recently come first.
 * Words separated by spaces must each match. Pure, and quick enough for 100,000 paths per keystroke:
 * a subsequence check skips most paths, and scoring is linear in a path's length per letter typed.
 */

/** The paths of a listing, with what matching needs of each, prepared once per listing. */
export interface PreparedFiles {
  readonly paths: readonly string[]
  readonly lower: readonly string[]
  /** Where each path's file name starts. */
  readonly nameStart: readonly number[]
}

/** One result: its path and where its letters matched (indices into the path), for highlighting. */
export interface RankedFile {
  path: string
  positions: number[]
  /** It was opened recently (the list says so, as VS Code's does). */
  recent: boolean
}

export interface RankOptions {
  /** Recently opened paths (relative, as listed), most recent first. */
  recent?: readonly string[]
  /** How many results (50 by default). */
  limit?: number
}

/** Prepares a listing for `rankFiles`. */
export function prepareFiles(paths: readonly string[]): PreparedFiles {
  return {
    paths,
    lower: paths.map((p) => p.toLowerCase()),
    nameStart: paths.map((p) => p.lastIndexOf('/') + 1),
  }
}

const scoreMatch = 16
const scoreConsecutive = 20
const gapStart = 3
const gapExtension = 1
const bonusSegment = 10
const bonusWord = 8
const bonusCamel = 8
/** A match wholly inside the file's name is ranked above any that reaches into its folders. */
const tierName = 1_000
const tierExactName = 5_000
const tierRecent = 100_000

const isUpper = (c: number) => c >= 65 && c <= 90
const isLowerOrDigit = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57)

/** What starting a match at `j` of `path` is worth beyond the letter itself. */
function bonusAt(path: string, j: number, from: number): number {
  if (j === from) return bonusSegment
  const prev = path.charCodeAt(j - 1)
  if (prev === 47) return bonusSegment // '/'
  if (prev === 95 || prev === 45 || prev === 46 || prev === 32) return bonusWord // _ - . space
  if (isUpper(path.charCodeAt(j)) && isLowerOrDigit(prev)) return bonusCamel
  return 0
}

const none = Number.NEGATIVE_INFINITY

/** Rows and spans reused from one path to the next: scoring allocates nothing unless positions are wanted. */
let rowA = new Float64Array(256)
let rowB = new Float64Array(256)
let first = new Int32Array(64)
let last = new Int32Array(64)

/** A row's cell, none outside its span (the reused buffers hold other paths' cells there). */
function cell(row: Float64Array, k: number, lo: number, hi: number): number {
  return k >= lo && k <= hi ? (row[k] as number) : none
}

/**
 * The best alignment of `query` in `path` from `from` (a dynamic programme over letters and
 * places, with a linear gap penalty so each cell costs a few steps): its score, and with
 * `positions` the places matched. Each letter's row only spans where it can be, from where the
 * earliest alignment puts it to where the latest does. Undefined when the letters do not all
 * appear in order.
 */
function align(
  query: string,
  path: string,
  lower: string,
  from: number,
  positions?: number[],
): number | undefined {
  const m = query.length
  if (m === 0) return 0
  const n = path.length
  if (m > first.length) {
    first = new Int32Array(m * 2)
    last = new Int32Array(m * 2)
  }
  let at = from
  for (let i = 0; i < m; i++) {
    at = lower.indexOf(query[i] as string, at)
    if (at === -1) return undefined
    first[i] = at++
  }
  at = n - 1
  for (let i = m - 1; i >= 0; i--) {
    at = lower.lastIndexOf(query[i] as string, at)
    last[i] = at--
  }
  if (n > rowA.length) {
    rowA = new Float64Array(n * 2)
    rowB = new Float64Array(n * 2)
  }
  const rows: Float64Array[] = []
  let prev: Float64Array = rowA
  let row: Float64Array = rowB
  for (let i = 0; i < m; i++) {
    if (positions) row = new Float64Array(n)
    const q = query.charCodeAt(i)
    const lo = first[i] as number
    const hi = last[i] as number
    const aboveLo = i === 0 ? 0 : (first[i - 1] as number)
    const aboveHi = i === 0 ? -1 : (last[i - 1] as number)
    // The best place of the row above to come from after a gap, its gap paid.
    let best = none
    for (let j = i === 0 ? lo : aboveLo + 1; j <= hi; j++) {
      if (i > 0 && j - 2 >= aboveLo && j - 2 <= aboveHi)
        best = Math.max(best - gapExtension, (prev[j - 2] as number) - gapStart)
      else best -= gapExtension
      if (j < lo) continue
      row[j] = none
      if (lower.charCodeAt(j) !== q) continue
      if (i === 0) row[j] = scoreMatch + bonusAt(path, j, from) * 2
      else {
        const consecutive =
          j - 1 >= aboveLo && j - 1 <= aboveHi ? (prev[j - 1] as number) + scoreConsecutive : none
        const base = Math.max(consecutive, best)
        if (base !== none) row[j] = base + scoreMatch + bonusAt(path, j, from)
      }
    }
    if (positions) rows.push(row)
    ;[prev, row] = [row, prev]
  }
  const lo = first[m - 1] as number
  const hi = last[m - 1] as number
  let end = -1
  let top = none
  for (let j = lo; j <= hi; j++)
    if ((prev[j] as number) > top) {
      top = prev[j] as number
      end = j
    }
  if (top === none) return undefined
  if (positions) {
    // Walk back: for each letter, the place of the one before that its score came from.
    const found = [end]
    let j = end
    for (let i = m - 1; i > 0; i--) {
      prev = rows[i - 1] as Float64Array
      const lo = first[i - 1] as number
      const hi = last[i - 1] as number
      const cameFrom = ((rows[i] as Float64Array)[j] as number) - scoreMatch - bonusAt(path, j, from)
      let k = j - 1
      if (cell(prev, k, lo, hi) + scoreConsecutive !== cameFrom)
        for (k = j - 2; k >= lo; k--)
          if (cell(prev, k, lo, hi) - gapStart - (j - k - 2) * gapExtension === cameFrom) break
      found.push(k)
      j = k
    }
    for (const p of found.reverse()) positions.push(p)
  }
  return top
}

/** One word of the query against one path: its score, and where it matched. */
function scoreWord(
  word: string,
  path: string,
  lower: string,
  nameStart: number,
  positions?: number[],
): number | undefined {
  const inName = align(word, path, lower, nameStart, positions)
  if (inName !== undefined) {
    const nameLength = lower.length - nameStart
    let exact = false
    if (nameLength === word.length || lower.charCodeAt(nameStart + word.length) === 46) {
      exact =
        lower.startsWith(word, nameStart) &&
        (nameLength === word.length || lower.indexOf('.', nameStart + word.length + 1) === -1)
    }
    return inName + tierName + (exact ? tierExactName : 0)
  }
  return align(word, path, lower, 0, positions)
}

/**
 * The paths that match `query`, best first, at most `limit`. With nothing typed, the recent files,
 * most recent first (as VS Code's list opens).
 */
export function rankFiles(files: PreparedFiles, query: string, options: RankOptions = {}): RankedFile[] {
  const limit = options.limit ?? 50
  const recent = options.recent ?? []
  const recentRank = new Map(recent.map((path, i) => [path, recent.length - i]))
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) {
    const listed = new Set(files.paths)
    return recent
      .filter((path) => listed.has(path))
      .slice(0, limit)
      .map((path) => ({ path, positions: [], recent: true }))
  }
  // The best `limit` so far, kept sorted (best first): inserting into a short list is cheaper than sorting all.
  const top: { index: number; score: number }[] = []
  const better = (a: { index: number; score: number }, b: { index: number; score: number }) => {
    if (a.score !== b.score) return a.score > b.score
    const pa = files.paths[a.index] as string
    const pb = files.paths[b.index] as string
    return pa.length !== pb.length ? pa.length < pb.length : pa < pb
  }
  for (let index = 0; index < files.paths.length; index++) {
    const lower = files.lower[index] as string
    const path = files.paths[index] as string
    let score = 0
    for (const word of words) {
      const s = scoreWord(word, path, lower, files.nameStart[index] as number)
      if (s === undefined) {
        score = none
        break
      }
      score += s
    }
    if (score === none) continue
    const rank = recentRank.get(path)
    if (rank !== undefined) score += tierRecent + rank
    const candidate = { index, score }
    if (top.length === limit && !better(candidate, top[top.length - 1] as { index: number; score: number }))
      continue
    let at = top.length
    while (at > 0 && better(candidate, top[at - 1] as { index: number; score: number })) at--
    top.splice(at, 0, candidate)
    if (top.length > limit) top.pop()
  }
  return top.map(({ index }) => {
    const path = files.paths[index] as string
    const lower = files.lower[index] as string
    const positions = new Set<number>()
    for (const word of words) {
      const found: number[] = []
      scoreWord(word, path, lower, files.nameStart[index] as number, found)
      for (const p of found) positions.add(p)
    }
    return { path, positions: [...positions].sort((a, b) => a - b), recent: recentRank.has(path) }
  })
}

/**
 * Where the letters of `query` fall in `name` (a symbol's, say), for bold letters as Go to File
 * shows them: each word of the query aligned as in a file's name; none where they are not all in it
 * in order (a server may match its own way).
 */
export function matchedLetters(query: string, name: string): number[] {
  const lower = name.toLowerCase()
  const positions = new Set<number>()
  for (const word of query.toLowerCase().split(/\s+/).filter(Boolean)) {
    const found: number[] = []
    if (align(word, name, lower, 0, found) !== undefined) for (const p of found) positions.add(p)
  }
  return [...positions].sort((a, b) => a - b)
}
