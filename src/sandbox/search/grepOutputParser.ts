import { concatBytes } from '../../common/concatBytes'
import { decodeLine } from './decodeLine'
import { lineHash } from './lineHash'
import { matchPreview } from './matchPreview'
import { findInLine } from './textMatcher'
import type { FileMatches, SearchMatch } from './textQuery'

/**
 * Reads `grep -rnIZ` output as it streams: records of `path NUL line-number : text \n`. The path
 * ends at its NUL, so a name with a newline in it is read whole; the text ends at its newline.
 * grep says which lines match, not where: the columns come from the query matched again in the
 * page (`regex`); where the page cannot read the query, the whole line is the match. A file is
 * handed over when the next one starts, at the end, or at the cap.
 */
export class GrepOutputParser {
  private pending: Uint8Array = new Uint8Array(0)
  private path: string | undefined
  private current: FileMatches | undefined
  /** The file whose lines are being left out (see `keep`). */
  private skipped: string | undefined
  private count = 0
  limitHit = false

  constructor(
    private readonly regex: RegExp | undefined,
    private readonly maxMatches: number,
    private readonly onFile: (file: FileMatches) => void,
    /** Files to search (the others are left out before they count): unsaved files are searched in the page. */
    private readonly keep: (path: string) => boolean = () => true,
  ) {}

  get matches(): number {
    return this.count
  }

  push(chunk: Uint8Array): void {
    let bytes = this.pending.length ? concatBytes([this.pending, chunk]) : chunk
    for (;;) {
      if (this.limitHit) return
      const separator = this.path === undefined ? 0 : 0x0a
      const at = bytes.indexOf(separator)
      if (at === -1) break
      const field = bytes.subarray(0, at)
      bytes = bytes.subarray(at + 1)
      if (this.path === undefined) this.path = decodeLine(field, []).text
      else {
        this.record(this.path, field)
        this.path = undefined
      }
    }
    this.pending = bytes.slice()
  }

  end(): void {
    if (this.path !== undefined && this.pending.length) this.record(this.path, this.pending)
    this.pending = new Uint8Array(0)
    this.path = undefined
    this.flush()
  }

  private record(path: string, field: Uint8Array): void {
    const colon = field.indexOf(0x3a)
    if (colon <= 0) return
    const line = Number(new TextDecoder().decode(field.subarray(0, colon)))
    if (!Number.isInteger(line)) return
    let body = field.subarray(colon + 1)
    if (body[body.length - 1] === 0x0d) body = body.subarray(0, body.length - 1)
    if (this.current?.path !== path && this.skipped !== path) {
      this.flush()
      this.current = this.keep(path) ? { path, matches: [] } : undefined
      this.skipped = this.current ? undefined : path
    }
    if (!this.current) return
    const decoded = decodeLine(body, [])
    const left = this.maxMatches - this.count
    let found: SearchMatch[] = this.regex ? findInLine(decoded.text, line, this.regex, left) : []
    if (found.length === 0) {
      const end = decoded.text.length
      found = [
        {
          line,
          start: 0,
          end,
          preview: matchPreview(decoded.text, 0, end),
          lineHash: lineHash(decoded.text),
        },
      ]
    }
    for (const match of found) {
      if (decoded.lossy) match.lossy = true
      this.current.matches.push(match)
      if (++this.count >= this.maxMatches) {
        this.limitHit = true
        this.flush()
        return
      }
    }
  }

  private flush(): void {
    const file = this.current
    this.current = undefined
    if (file && file.matches.length > 0) this.onFile(file)
  }
}
