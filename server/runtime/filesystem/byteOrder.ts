/** Compares names by their UTF-8 bytes, the order Go's sorted directory reads use. */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}
