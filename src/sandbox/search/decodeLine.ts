/** A line's text and where some of its byte offsets fall in that text. */
export interface DecodedLine {
  text: string
  /** For each byte offset asked for, the UTF-16 offset in `text`. */
  offsets: number[]
  /** The bytes were not valid UTF-8: each bad byte became U+FFFD. */
  lossy: boolean
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** How many bytes a UTF-8 sequence starting with `lead` takes (0: not a lead byte). */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1
  if (lead >= 0xc2 && lead <= 0xdf) return 2
  if (lead >= 0xe0 && lead <= 0xef) return 3
  if (lead >= 0xf0 && lead <= 0xf4) return 4
  return 0
}

/** The range a sequence's second byte must fall in (no overlong forms, surrogates or code points past U+10FFFF). */
function secondByteFits(lead: number, byte: number): boolean {
  if (lead === 0xe0) return byte >= 0xa0
  if (lead === 0xed) return byte < 0xa0
  if (lead === 0xf0) return byte >= 0x90
  if (lead === 0xf4) return byte < 0x90
  return true
}

/** The code point of a valid sequence of `length` bytes at `i`. */
function codePointAt(bytes: Uint8Array, i: number, length: number): number {
  const lead = bytes[i] as number
  const tail = (k: number) => (bytes[i + k] as number) & 0x3f
  if (length === 1) return lead
  if (length === 2) return ((lead & 0x1f) << 6) | tail(1)
  if (length === 3) return ((lead & 0x0f) << 12) | (tail(1) << 6) | tail(2)
  return ((lead & 0x07) << 18) | (tail(1) << 12) | (tail(2) << 6) | tail(3)
}

/**
 * Decodes one line's bytes and maps byte offsets (ripgrep's submatch `start`/`end`) to UTF-16
 * offsets (the editor's columns), in one pass. Valid UTF-8 decodes exactly; anything else (a
 * Latin-1 file) decodes byte by byte, each byte that starts no valid sequence becoming one U+FFFD,
 * so the offsets agree with the text shown.
 */
export function decodeLine(bytes: Uint8Array, byteOffsets: readonly number[]): DecodedLine {
  const wanted = byteOffsets.map((offset, index) => ({ offset, index })).sort((a, b) => a.offset - b.offset)
  const offsets = new Array<number>(byteOffsets.length).fill(0)
  let text: string | undefined
  try {
    text = utf8.decode(bytes)
  } catch {
    text = undefined
  }
  const lossy = text === undefined
  const pieces: string[] = []
  let next = 0
  let units = 0
  let i = 0
  while (i <= bytes.length) {
    while (next < wanted.length && (wanted[next] as { offset: number }).offset <= i) {
      offsets[(wanted[next] as { index: number }).index] = units
      next++
    }
    if (i === bytes.length || (next === wanted.length && !lossy)) break
    const lead = bytes[i] as number
    let length = sequenceLength(lead)
    for (let k = 1; k < length; k++) {
      const byte = bytes[i + k]
      if (byte === undefined || (byte & 0xc0) !== 0x80 || (k === 1 && !secondByteFits(lead, byte))) length = 0
    }
    if (length === 0) {
      if (lossy) pieces.push('\ufffd')
      units += 1
      i += 1
    } else {
      // Four bytes make a surrogate pair: two UTF-16 units.
      units += length === 4 ? 2 : 1
      if (lossy) pieces.push(String.fromCodePoint(codePointAt(bytes, i, length)))
      i += length
    }
  }
  // Offsets past the end (a caller's mistake, or a line cut short) land at the end.
  while (next < wanted.length) offsets[(wanted[next++] as { index: number }).index] = units
  return { text: text ?? pieces.join(''), offsets, lossy }
}
