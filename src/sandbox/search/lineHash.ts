/**
 * A fingerprint of one line's text (without its line break): two 32-bit multiply-xor lanes over
 * its UTF-16 units, plus the length. Not cryptographic: it tells a replace that the line a match
 * was found on is still the same, without keeping every matched line (a minified file's may be
 * megabytes) in the page.
 */
export function lineHash(line: string): string {
  let a = 0x811c9dc5
  let b = 0x9747b28c
  for (let i = 0; i < line.length; i++) {
    const unit = line.charCodeAt(i)
    a = Math.imul(a ^ unit, 0x01000193)
    b = Math.imul(b ^ unit, 0x5bd1e995)
    b ^= b >>> 15
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0')
  return `${hex(a)}${hex(b)}:${line.length}`
}

/** A line as the search engines report it, without its line break (`\n`, `\r\n`). */
export function withoutLineBreak(line: string): string {
  if (line.endsWith('\r\n')) return line.slice(0, -2)
  if (line.endsWith('\n')) return line.slice(0, -1)
  return line
}
