// Strict UTF-8 so that what is shown is exactly what is saved back: a file that is not valid
// UTF-8 (or has a NUL early on, as binaries do) is not opened as text at all.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const encoder = new TextEncoder()

/** How far a NUL byte is looked for; git and VS Code judge binaries by the start of a file too. */
const sniffBytes = 8192

/** The file's text, or undefined when it is binary (a NUL near the start, or not UTF-8). */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, sniffBytes).includes(0)) return undefined
  try {
    // ignoreBOM keeps a byte-order mark in the text, so saving writes it back.
    return decoder.decode(bytes)
  } catch {
    return undefined
  }
}

/** The bytes to save for `text`. */
export function encodeText(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text)
}
