import type { IncomingHttpHeaders } from 'node:http'
import { FilesError } from './filesError'

const headerPrefix = 'x-metadata-'
/** 255 (the kernel's xattr name limit) minus the "user.e2b." prefix. */
const maxKeyBytes = 246
/** All keys and values together; one filesystem block holds a file's xattrs on ext4. */
const maxTotalBytes = 4096
const printableAscii = /^[\x20-\x7e]*$/

/**
 * The metadata an upload sets, from its `X-Metadata-<key>: <value>` headers (keys lowercased,
 * as HTTP header names are case-insensitive). Keys and values must be printable ASCII, a key
 * at most 246 bytes and everything at most 4096 bytes; otherwise 400.
 */
export function metadataFromHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const metadata: Record<string, string> = {}
  let total = 0
  for (const [name, raw] of Object.entries(headers)) {
    if (!name.startsWith(headerPrefix) || raw === undefined) continue
    const key = name.slice(headerPrefix.length)
    const value = Array.isArray(raw) ? raw.join(', ') : raw
    if (key === '') throw new FilesError(400, 'invalid metadata key: empty key')
    if (!printableAscii.test(key))
      throw new FilesError(400, `invalid metadata key '${key}': not printable ASCII`)
    if (key.length > maxKeyBytes)
      throw new FilesError(400, `invalid metadata key '${key}': longer than ${maxKeyBytes} bytes`)
    if (!printableAscii.test(value))
      throw new FilesError(400, `invalid metadata value for key '${key}': not printable ASCII`)
    total += key.length + value.length
    metadata[key] = value
  }
  if (total > maxTotalBytes) throw new FilesError(400, `metadata too large: more than ${maxTotalBytes} bytes`)
  return metadata
}
