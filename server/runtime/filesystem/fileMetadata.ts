import { getAttributeSync, listAttributesSync, removeAttribute, setAttribute } from 'fs-xattr'

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

/**
 * Makes `metadata` the file's metadata, as envd's upload does: each key is stored as
 * `user.e2b.<key>`, and earlier `user.e2b.*` attributes not in it are removed (other xattrs stay).
 */
export async function writeMetadata(path: string, metadata: Record<string, string>): Promise<void> {
  let names: string[] = []
  try {
    names = listAttributesSync(path)
  } catch {}
  for (const name of names) {
    const key = name.slice(metadataXattrPrefix.length)
    if (name.startsWith(metadataXattrPrefix) && !Object.hasOwn(metadata, key))
      await removeAttribute(path, name)
  }
  for (const [key, value] of Object.entries(metadata)) {
    await setAttribute(path, metadataXattrPrefix + key, value)
  }
}
