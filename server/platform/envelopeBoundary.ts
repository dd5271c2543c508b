/**
 * Follows a Connect stream's envelopes (a flag byte, a 4-byte big-endian length, the payload)
 * through the pieces a socket cuts it into, and says whether the bytes so far end on an envelope's
 * end. The tunnel uses it to carry whole envelopes: the page can do nothing with part of one.
 */
export class EnvelopeBoundary {
  /** Header bytes of the envelope being read, until all five are in. */
  private header: number[] = []
  /** Payload bytes of the current envelope still to come. */
  private payloadLeft = 0

  /** Takes the next piece; true when the stream so far ends exactly after an envelope. */
  feed(piece: Uint8Array): boolean {
    let at = 0
    while (at < piece.length) {
      if (this.payloadLeft > 0) {
        const taken = Math.min(this.payloadLeft, piece.length - at)
        this.payloadLeft -= taken
        at += taken
        continue
      }
      this.header.push(piece[at] as number)
      at++
      if (this.header.length === 5) {
        const [, b1, b2, b3, b4] = this.header as [number, number, number, number, number]
        this.payloadLeft = ((b1 << 24) >>> 0) + (b2 << 16) + (b3 << 8) + b4
        this.header = []
      }
    }
    return this.payloadLeft === 0 && this.header.length === 0
  }
}

/** Whether an answer is a Connect stream (`application/connect+proto`, `+json`, …). */
export const isConnectStream = (contentType: string | undefined): boolean =>
  /^application\/connect\+/i.test(contentType ?? '')
