import { getAttributeSync, listAttributesSync, setAttribute } from 'fs-xattr'

/** Metadata lives in extended attributes under this prefix (envd ≥ 0.6.2). */
export const metadataXattrPrefix = 'user.e2b.'

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The `user.e2b.*` extended attributes of `path` (following symlinks), prefix stripped.
 * Values that are not valid UTF-8 are skipped, as envd does; a filesystem without xattr
 * support, or a path that vanished, simply has none. Synchronous, like `entryInfo`, for speed.
 */
export function readMetadata(path: string): Record<string, string> {
  let names: string[]
  try {
    names = listAttributesSync(path)
  } catch {
    return {}
  }
  const metadata: Record<string, string> = {}
  for (const name of names) {
    if (!name.startsWith(metadataXattrPrefix)) continue
    try {
      metadata[name.slice(metadataXattrPrefix.length)] = strictUtf8.decode(getAttributeSync(path, name))
    } catch {
      // Removed between list and get, or not UTF-8: leave it out.
    }
  }
  return metadata
}

/** Stores each key as `user.e2b.<key>` on a file that has no metadata yet (a fresh upload). */
export async function writeMetadata(path: string, metadata: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(metadata)) {
    await setAttribute(path, metadataXattrPrefix + key, value)
  }
}
