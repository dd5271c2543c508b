/**
 * Watches the bytes a language server writes for what vscode-jsonrpc's reader would take in
 * without bound: a header that never ends (a server that prints text, not LSP) and a message
 * whose Content-Length is past the limit (it would buffer it whole before failing). It only
 * follows the framing, header by header and body by body across any chunking; parsing is the
 * reader's. Returns what is wrong, once, or undefined while all is well.
 */
export class FrameGuard {
  private header = ''
  /** Bytes of the current body still to come; -1 while a header is read. */
  private bodyLeft = -1
  private failure: string | undefined

  constructor(
    private readonly maxMessageBytes: number,
    private readonly maxHeaderBytes = 8 * 1024,
  ) {}

  /** Follows one chunk; what is wrong with the stream so far, if anything. */
  check(chunk: Uint8Array): string | undefined {
    let at = 0
    while (at < chunk.length && !this.failure) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, chunk.length - at)
        this.bodyLeft -= take
        at += take
        continue
      }
      // In a header: byte by byte until the blank line that ends it (headers are ASCII).
      this.header += String.fromCharCode(chunk[at++] as number)
      if (this.header.length > this.maxHeaderBytes) {
        this.failure = `it wrote ${this.maxHeaderBytes} bytes that are not an LSP header: ${printable(this.header)}`
      } else if (this.header.endsWith('\r\n\r\n')) {
        const length = /(?:^|\r\n)content-length:\s*(\d+)\s*\r\n/i.exec(this.header)?.[1]
        if (length === undefined)
          this.failure = `it wrote a header without Content-Length: ${printable(this.header)}`
        else if (Number(length) > this.maxMessageBytes)
          this.failure = `it sent a message of ${megabytes(Number(length))}, over the limit of ${megabytes(this.maxMessageBytes)}`
        else this.bodyLeft = Number(length)
        this.header = ''
      }
    }
    return this.failure
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MB`

/** The start of what it wrote, as text a person can read in one line. */
function printable(text: string): string {
  const line = text.slice(0, 80).replace(/[^\x20-\x7e]/g, (c) => (c === '\n' ? '⏎' : '·'))
  return text.length > 80 ? `${line}…` : line
}
