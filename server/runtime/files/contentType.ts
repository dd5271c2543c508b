import { readFileSync } from 'node:fs'
import { extname } from 'node:path'

/** Go's built-in table (mime.TypeByExtension), which it extends from /etc/mime.types. */
const builtin: Record<string, string> = {
  '.avif': 'image/avif',
  '.css': 'text/css; charset=utf-8',
  '.gif': 'image/gif',
  '.htm': 'text/html; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.mjs': 'text/javascript; charset=utf-8',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.webp': 'image/webp',
  '.xml': 'text/xml; charset=utf-8',
}

/** Text types get an explicit charset, as Go adds one. */
function withCharset(type: string): string {
  return type.startsWith('text/') && !type.includes('charset') ? `${type}; charset=utf-8` : type
}

function loadTypes(): Map<string, string> {
  const types = new Map(Object.entries(builtin))
  let text = ''
  try {
    text = readFileSync('/etc/mime.types', 'utf8')
  } catch {
    return types
  }
  for (const line of text.split('\n')) {
    const [type, ...extensions] = line.replace(/#.*/, '').trim().split(/\s+/)
    if (!type?.includes('/')) continue
    for (const ext of extensions) types.set(`.${ext.toLowerCase()}`, withCharset(type))
  }
  return types
}

let types: Map<string, string> | undefined

/** The Content-Type for a file name by its extension, as Go's mime package finds it. */
export function contentTypeFor(path: string): string | undefined {
  types ??= loadTypes()
  const ext = extname(path).toLowerCase()
  return ext ? types.get(ext) : undefined
}

/**
 * A small stand-in for Go's content sniffing of the first 512 bytes: text unless it holds
 * bytes that never appear in text.
 */
export function sniffContentType(head: Uint8Array): string {
  for (const byte of head) {
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f))
      return 'application/octet-stream'
  }
  return 'text/plain; charset=utf-8'
}
