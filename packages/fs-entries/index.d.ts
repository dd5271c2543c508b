/** A directory's entries, in the order of their names' bytes (envd's order); arrays indexed alike. */
export interface DirEntries {
  /** Entry names; a name that is not valid UTF-8 is left out (a string cannot name it). */
  names: string[]
  /** The lstat error of each entry (an errno, 0 when it was read): it vanished (ENOENT), or worse. */
  errors: Int32Array
  /** st_mode, with the type bits. */
  modes: Uint32Array
  uids: Uint32Array
  gids: Uint32Array
  sizes: BigInt64Array
  mtimeSeconds: BigInt64Array
  mtimeNanos: Uint32Array
  /**
   * Each entry's extended attributes named `prefix…` (prefix removed) with their raw values, or
   * undefined where it has none; never read for symbolic links (their targets' are the caller's).
   */
  attributes: (Record<string, Uint8Array> | undefined)[]
}

/**
 * Reads `dir` (readdir, then lstat of each entry relative to the directory and one listxattr,
 * following links as getxattr does) on a thread of libuv's pool, so the event loop goes on
 * meanwhile. Rejects with a Node-style error (`code` such as ENOENT or ENOTDIR) when the
 * directory itself cannot be read.
 */
export function readDirEntries(dir: string, attributePrefix: string): Promise<DirEntries>
