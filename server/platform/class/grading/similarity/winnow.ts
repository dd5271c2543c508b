import type { CodeToken } from './codeTokens'

/** A selected fingerprint: a k-gram's hash and the lines it spans. */
export interface Fingerprint {
  hash: number
  from: number
  to: number
}

/** A 32-bit FNV-1a hash of one token's text. */
function tokenHash(text: string): number {
  let x = 0x811c9dc5
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 0x01000193)
  return x >>> 0
}

/** The hash of every run of `k` consecutive tokens, in order (none when there are fewer). */
export function kgramHashes(tokens: readonly CodeToken[], k: number): number[] {
  // Each token hashed once (a file has few distinct ones), then k of them folded per k-gram.
  const known = new Map<string, number>()
  const each = tokens.map(({ text }) => {
    let h = known.get(text)
    if (h === undefined) {
      h = tokenHash(text)
      known.set(text, h)
    }
    return h
  })
  const hashes: number[] = []
  for (let start = 0; start + k <= each.length; start++) {
    let h = 0x811c9dc5
    for (let j = start; j < start + k; j++) h = Math.imul(h ^ (each[j] as number), 0x01000193) ^ (h >>> 15)
    hashes.push(h >>> 0)
  }
  return hashes
}

/**
 * Winnowing (Schleimer, Wilkerson and Aiken, 2003): of every window of `w` consecutive k-gram
 * hashes, the smallest is kept (the rightmost of equal ones), each once. Any run of at least
 * w + k - 1 tokens two texts share then yields at least one fingerprint both have, while a text
 * keeps only about 2/(w+1) of its hashes. A text shorter than one window keeps its smallest.
 */
export function winnow(tokens: readonly CodeToken[], k: number, w: number): Fingerprint[] {
  const hashes = kgramHashes(tokens, k)
  const picked: Fingerprint[] = []
  const at = (i: number): Fingerprint => ({
    hash: hashes[i] as number,
    from: (tokens[i] as CodeToken).line,
    to: (tokens[i + k - 1] as CodeToken).line,
  })
  let last = -1
  const windows = Math.max(1, hashes.length - w + 1)
  for (let start = 0; start < windows && hashes.length > 0; start++) {
    const end = Math.min(start + w, hashes.length)
    let min = start
    for (let i = start + 1; i < end; i++) if ((hashes[i] as number) <= (hashes[min] as number)) min = i
    if (min !== last) {
      picked.push(at(min))
      last = min
    }
  }
  return picked
}
