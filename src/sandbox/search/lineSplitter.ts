import { concatBytes } from '../../common/concatBytes'

/**
 * Splits a byte stream into lines (at `\n`, or at NUL for `--null` output; the separator is left
 * out), whatever the chunks: a line may arrive in several pieces, and a multi-byte character may
 * be cut between two of them, so lines are cut as bytes and decoded whole.
 */
export class LineSplitter {
  private pending: Uint8Array[] = []

  constructor(private readonly separator = 0x0a) {}

  /** The complete lines `chunk` ends, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    const lines: Uint8Array[] = []
    let from = 0
    for (let at = chunk.indexOf(this.separator); at !== -1; at = chunk.indexOf(this.separator, from)) {
      const piece = chunk.subarray(from, at)
      lines.push(this.pending.length ? concatBytes([...this.pending, piece]) : piece)
      this.pending = []
      from = at + 1
    }
    if (from < chunk.length) this.pending.push(chunk.slice(from))
    return lines
  }

  /** What is left after the last separator, if anything. */
  end(): Uint8Array | undefined {
    const rest = this.pending.length ? concatBytes(this.pending) : undefined
    this.pending = []
    return rest
  }
}
