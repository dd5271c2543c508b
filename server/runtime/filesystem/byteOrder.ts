/**
 * Compares names by their UTF-8 bytes, the order Go's sorted directory reads use. UTF-8 orders by
 * code point, and so do UTF-16 code units but in one case: a surrogate (half of a character from
 * U+10000 up) sorts below U+E000-U+FFFF as a code unit and above them as a code point. Comparing
 * code units with that one case turned around gives the bytes' order without encoding anything
 * (a listing sorts 100,000 names: some 1.7 million comparisons).
 */
export function byteOrder(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    if (x >= 0xd800 && y >= 0xd800) {
      const xSurrogate = x <= 0xdfff
      const ySurrogate = y <= 0xdfff
      if (xSurrogate !== ySurrogate) return xSurrogate ? 1 : -1
    }
    return x - y
  }
  return a.length - b.length
}
