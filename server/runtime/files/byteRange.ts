/** One satisfiable byte range, inclusive at both ends. */
export interface ByteRange {
  start: number
  end: number
}

/**
 * Reads a Range header for a body of `size` bytes: a single range, 'unsatisfiable' (416, like a
 * malformed header, as Go answers), or 'whole' when the header is absent or names several
 * ranges (served as a plain 200, which HTTP allows, instead of Go's multipart/byteranges).
 */
export function parseByteRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | 'whole' {
  if (header === undefined || header === '') return 'whole'
  const match = header.match(/^\s*bytes\s*=\s*(.*)$/i)
  if (!match?.[1]) return 'unsatisfiable'
  const specs = match[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (specs.length === 0) return 'unsatisfiable'
  if (specs.length > 1) return 'whole'
  const spec = (specs[0] as string).match(/^(\d*)\s*-\s*(\d*)$/)
  if (!spec) return 'unsatisfiable'
  const [, first = '', last = ''] = spec
  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last)
    if (last === '' || length === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(size - length, 0), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return 'unsatisfiable'
  const end = last === '' ? size - 1 : Number(last)
  if (end < start) return 'unsatisfiable'
  return { start, end: Math.min(end, size - 1) }
}
