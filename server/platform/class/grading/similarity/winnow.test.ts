import { describe, expect, it } from 'vitest'
import { codeTokens } from './codeTokens'
import { kgramHashes, winnow } from './winnow'

const tokens = (n: number, seed = 0) =>
  Array.from({ length: n }, (_, i) => ({ text: `t${(i * 7919 + seed) % 101}`, line: i + 1 }))

describe('winnow', () => {
  it('hashes each k-gram by its tokens, so the same run hashes the same anywhere', () => {
    const a = kgramHashes(codeTokens('x = f(y) + 1'), 3)
    const b = kgramHashes(codeTokens('q = g(r) + 2'), 3)
    expect(a).toEqual(b)
    expect(a).toHaveLength(8 - 3 + 1)
    expect(kgramHashes(codeTokens('a b'), 3)).toEqual([])
    // `ab c` and `a bc` are different token runs.
    expect(
      kgramHashes(
        [
          { text: 'ab', line: 1 },
          { text: 'c', line: 1 },
        ],
        2,
      ),
    ).not.toEqual(
      kgramHashes(
        [
          { text: 'a', line: 1 },
          { text: 'bc', line: 1 },
        ],
        2,
      ),
    )
  })

  it('keeps the minimum of every window, once each, about 2/(w+1) of the hashes', () => {
    const all = tokens(2000)
    const hashes = kgramHashes(all, 5)
    const picked = winnow(all, 5, 4)
    for (let start = 0; start + 4 <= hashes.length; start++) {
      const window = hashes.slice(start, start + 4)
      expect(picked.some((p) => p.hash === Math.min(...window))).toBe(true)
    }
    expect(picked.length).toBeLessThan(hashes.length * 0.6)
    expect(picked.length).toBeGreaterThan(hashes.length * 0.25)
  })

  it('finds a shared run of w + k - 1 tokens in two otherwise different texts', () => {
    const k = 5
    const w = 4
    const common = tokens(w + k - 1, 50).map((t) => ({ ...t, text: `shared-${t.text}` }))
    const a = [...tokens(40, 1), ...common, ...tokens(40, 2)]
    const b = [...tokens(30, 3), ...common, ...tokens(50, 4)]
    const inA = new Set(winnow(a, k, w).map((p) => p.hash))
    expect(winnow(b, k, w).some((p) => inA.has(p.hash))).toBe(true)
  })

  it('gives each fingerprint the lines of its k-gram, and a short text its one smallest', () => {
    const few = codeTokens('a\nb\nc')
    expect(winnow(few, 2, 10)).toHaveLength(1)
    const [only] = winnow(codeTokens('x\n=\n1'), 3, 4)
    expect(only).toMatchObject({ from: 1, to: 3 })
    expect(winnow([], 3, 4)).toEqual([])
  })
})
