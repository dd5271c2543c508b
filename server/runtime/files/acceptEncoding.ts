/** The response encodings /files can produce. */
export type ResponseEncoding = 'gzip' | 'identity'

/**
 * Picks the /files download encoding from Accept-Encoding (q-values honoured): gzip when it is
 * acceptable and at least as preferred as a named identity (so every browser gets gzip), else
 * identity; undefined when both are refused (406).
 */
export function negotiateEncoding(header: string | undefined): ResponseEncoding | undefined {
  if (header === undefined || header.trim() === '') return 'identity'
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim().toLowerCase())
    if (!coding) continue
    let q = 1
    for (const param of params) {
      const match = param.match(/^q\s*=\s*([0-9.]+)$/)
      if (match?.[1]) q = Math.min(Math.max(Number.parseFloat(match[1]) || 0, 0), 1)
    }
    weights.set(coding, q)
  }
  const star = weights.get('*')
  const gzip = weights.get('gzip') ?? weights.get('x-gzip') ?? star ?? 0
  // identity only competes when named (or through `*`); unnamed it is the fallback.
  const identity = weights.get('identity') ?? star
  if (gzip > 0 && gzip >= (identity ?? 0)) return 'gzip'
  if ((identity ?? 1) > 0) return 'identity'
  return undefined
}
