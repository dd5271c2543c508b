import { decodeLine } from './decodeLine'
import { lineHash, withoutLineBreak } from './lineHash'
import { LineSplitter } from './lineSplitter'
import { matchPreview } from './matchPreview'
import type { FileMatches, SearchMatch } from './textQuery'

/** ripgrep's way of giving a string: `text` when it is valid UTF-8, else `bytes` in base64. */
interface RgData {
  text?: string
  bytes?: string
}

interface RgMessage {
  type: 'begin' | 'match' | 'end' | 'context' | 'summary'
  data: {
    path?: RgData
    lines?: RgData
    line_number?: number | null
    submatches?: { start: number; end: number }[]
    stats?: { bytes_searched?: number }
  }
}

const encoder = new TextEncoder()
const jsonText = new TextDecoder()

function fromBase64(text: string): Uint8Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

function bytesOf(data: RgData): Uint8Array {
  return data.bytes !== undefined ? fromBase64(data.bytes) : encoder.encode(data.text ?? '')
}

/** The absolute path of what ripgrep printed relative to `root` (it runs there, on `.`). */
export function underRoot(root: string, path: string): string {
  if (path.startsWith('/')) return path
  const relative = path.startsWith('./') ? path.slice(2) : path
  return root.endsWith('/') ? `${root}${relative}` : `${root}/${relative}`
}

/**
 * Reads `rg --json` output as it streams: lines cut as bytes across chunks, each message parsed,
 * each match's byte offsets turned into UTF-16 columns of its line (decoded from `text`, or from
 * base64 `bytes` where the line is not UTF-8). A file is handed over when ripgrep ends it, or
 * when the cap is reached inside it (then the rest is ignored and `limitHit` is set).
 */
export class RipgrepJsonParser {
  private readonly lines = new LineSplitter()
  private current: FileMatches | undefined
  private count = 0
  /** The cap was reached: what comes after is ignored. */
  limitHit = false

  constructor(
    private readonly root: string,
    private readonly maxMatches: number,
    private readonly onFile: (file: FileMatches) => void,
    /** Files to search (the others are left out before they count): unsaved files are searched in the page. */
    private readonly keep: (path: string) => boolean = () => true,
  ) {}

  /** Matches handed over so far. */
  get matches(): number {
    return this.count
  }

  push(chunk: Uint8Array): void {
    for (const line of this.lines.push(chunk)) this.line(line)
  }

  /** The output ended: a last line without its `\n` still counts. */
  end(): void {
    const rest = this.lines.end()
    if (rest) this.line(rest)
    this.flush()
  }

  private line(bytes: Uint8Array): void {
    if (this.limitHit) return
    // A login shell's profile may print something; only ripgrep's messages are JSON objects.
    if (bytes[0] !== 0x7b) return
    let message: RgMessage
    try {
      message = JSON.parse(jsonText.decode(bytes)) as RgMessage
    } catch {
      return
    }
    const { type, data } = message
    if (type === 'begin' && data.path) {
      this.flush()
      const path = this.pathOf(data.path)
      this.current = this.keep(path) ? { path, matches: [] } : undefined
    } else if (type === 'match' && data.lines && this.current) {
      this.match(this.current, data)
    } else if (type === 'end') {
      const size = data.stats?.bytes_searched
      if (this.current && size !== undefined) this.current.size = size
      this.flush()
    }
  }

  private match(file: FileMatches, data: RgMessage['data']): void {
    const submatches = data.submatches ?? []
    const offsets = submatches.flatMap((s) => [s.start, s.end])
    const decoded = decodeLine(bytesOf(data.lines as RgData), offsets)
    const text = withoutLineBreak(decoded.text)
    const hash = lineHash(text)
    const line = data.line_number ?? 0
    for (let i = 0; i < submatches.length; i++) {
      const start = Math.min(decoded.offsets[2 * i] as number, text.length)
      const end = Math.min(decoded.offsets[2 * i + 1] as number, text.length)
      const match: SearchMatch = {
        line,
        start,
        end,
        preview: matchPreview(text, start, end),
        lineHash: hash,
      }
      if (decoded.lossy) match.lossy = true
      file.matches.push(match)
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

  private pathOf(path: RgData): string {
    const text = path.text ?? decodeLine(bytesOf(path), []).text
    return underRoot(this.root, text)
  }
}
