import { textOf } from '../unifiedDiff'
import { codeTokens } from './codeTokens'
import { kgramHashes, winnow } from './winnow'

/** A file of a submission or of the lab's starting code. */
export interface CodeFile {
  path: string
  content: Uint8Array
}

/** Lines of one file: where a fingerprint, or a run of them, sits. */
export interface LineRange {
  path: string
  from: number
  to: number
}

/** Lines of one submission and lines of the other that share fingerprints. */
export interface MatchedRegion {
  a: LineRange
  b: LineRange
}

export interface ScoredPair {
  /** The two submissions' keys, in the order they were given. */
  a: string
  b: string
  /** Shared fingerprints over the smaller one's count, 0 to 1: how much of one is in the other. */
  score: number
  /** Shared over all distinct fingerprints of the two. */
  jaccard: number
  shared: number
  regions: MatchedRegion[]
}

export interface SimilarityOptions {
  /** Tokens per k-gram. */
  k: number
  /** Winnowing's window, in k-grams. */
  w: number
  /** A fingerprint in more than this share of the submissions (and in 3 at least) is boilerplate. */
  commonShare: number
  /** Pairs sharing fewer fingerprints are left out: a line or two in common is chance. */
  minShared: number
  /** How many pairs, the most similar first. */
  limit: number
  /** Larger files are skipped (and said so). */
  maxFileBytes: number
  /** Tokens read of one submission at most, so a huge one costs no more than this. */
  maxTokens: number
  /** Matched regions reported per pair at most. */
  maxRegions: number
}

export const defaultSimilarityOptions: SimilarityOptions = {
  k: 12,
  w: 6,
  commonShare: 0.5,
  minShared: 3,
  limit: 20,
  maxFileBytes: 1024 * 1024,
  maxTokens: 200_000,
  maxRegions: 50,
}

export interface SimilarityResult {
  pairs: ScoredPair[]
  /** Fingerprints left out everywhere: in the starting files, or shared by most submissions. */
  ignored: { starting: number; common: number }
  /** Submitted files not compared, and why. */
  skipped: { key: string; path: string; why: 'binary' | 'too large' }[]
}

type Prints = Map<number, LineRange>

/**
 * The most similar pairs of submissions, by token fingerprints (as MOSS and compare50 find them):
 * each submission's files are tokenised (names, literals, comments and layout do not count),
 * hashed in k-grams and winnowed; fingerprints of the starting files (any of their k-grams) and
 * those most submissions share are dropped; a pair scores the fingerprints it still shares. This
 * points a teacher at code to read, never at a verdict: short or formulaic labs share code honestly.
 */
export function similarPairs(
  submissions: readonly { key: string; files: readonly CodeFile[] | (() => readonly CodeFile[]) }[],
  starting: readonly CodeFile[],
  options: Partial<SimilarityOptions> = {},
): SimilarityResult {
  const o = { ...defaultSimilarityOptions, ...options }
  const skipped: SimilarityResult['skipped'] = []
  const startingHashes = new Set<number>()
  for (const file of starting) {
    const text = readable(file, o.maxFileBytes)
    if (typeof text === 'string')
      for (const h of kgramHashes(codeTokens(text, o.maxTokens), o.k)) startingHashes.add(h)
  }
  const prints: Prints[] = submissions.map(({ key, files }) => {
    const found: Prints = new Map()
    let budget = o.maxTokens
    // Read when its turn comes, so only one submission's bytes are held at a time.
    for (const file of typeof files === 'function' ? files() : files) {
      const text = readable(file, o.maxFileBytes)
      if (typeof text !== 'string') {
        skipped.push({ key, path: file.path, why: text.why })
        continue
      }
      if (budget <= 0) break
      const tokens = codeTokens(text, budget)
      budget -= tokens.length
      for (const { hash, from, to } of winnow(tokens, o.k, o.w))
        if (!found.has(hash)) found.set(hash, { path: file.path, from, to })
    }
    return found
  })
  // Drop the starting code's, then what most of the class has (the same helper everyone was shown).
  const ignored = { starting: new Set<number>(), common: new Set<number>() }
  const counts = new Map<number, number>()
  for (const found of prints)
    for (const h of found.keys()) {
      if (startingHashes.has(h)) {
        found.delete(h)
        ignored.starting.add(h)
      } else counts.set(h, (counts.get(h) ?? 0) + 1)
    }
  const commonAbove = Math.max(2, o.commonShare * submissions.length)
  for (const [h, count] of counts) if (count > commonAbove) ignored.common.add(h)
  for (const found of prints) for (const h of ignored.common) found.delete(h)

  const pairs: ScoredPair[] = []
  for (let i = 0; i < prints.length; i++)
    for (let j = i + 1; j < prints.length; j++) {
      const a = prints[i] as Prints
      const b = prints[j] as Prints
      const [small, large] = a.size <= b.size ? [a, b] : [b, a]
      let shared = 0
      for (const h of small.keys()) if (large.has(h)) shared++
      if (shared < o.minShared || shared === 0) continue
      pairs.push({
        a: submissions[i]?.key as string,
        b: submissions[j]?.key as string,
        score: shared / small.size,
        jaccard: shared / (a.size + b.size - shared),
        shared,
        regions: regionsOf(a, b, o.maxRegions),
      })
    }
  pairs.sort((x, y) => y.score - x.score || y.shared - x.shared)
  return {
    pairs: pairs.slice(0, o.limit),
    ignored: { starting: ignored.starting.size, common: ignored.common.size },
    skipped,
  }
}

/** A file's text, or why it is not compared. */
function readable(file: CodeFile, maxBytes: number): string | { why: 'binary' | 'too large' } {
  if (file.content.byteLength > maxBytes) return { why: 'too large' }
  return textOf(file.content) ?? { why: 'binary' }
}

const byPlace = (x: LineRange, y: LineRange) =>
  x.path < y.path ? -1 : x.path > y.path ? 1 : x.from - y.from || x.to - y.to

/**
 * Where a pair's shared fingerprints sit, as line ranges of each: in the order of the first
 * submission's files, runs that touch on both sides merged into one region.
 */
function regionsOf(a: Prints, b: Prints, max: number): MatchedRegion[] {
  const matches: MatchedRegion[] = []
  for (const [h, at] of a) {
    const other = b.get(h)
    if (other) matches.push({ a: { ...at }, b: { ...other } })
  }
  matches.sort((x, y) => byPlace(x.a, y.a) || byPlace(x.b, y.b))
  const regions: MatchedRegion[] = []
  for (const m of matches) {
    const last = regions.at(-1)
    const touches = (x: LineRange, y: LineRange) =>
      x.path === y.path && y.from <= x.to + 1 && y.to >= x.from - 1
    if (last && touches(last.a, m.a) && touches(last.b, m.b)) {
      last.a.to = Math.max(last.a.to, m.a.to)
      last.b.from = Math.min(last.b.from, m.b.from)
      last.b.to = Math.max(last.b.to, m.b.to)
    } else regions.push(m)
  }
  return regions.slice(0, max)
}
