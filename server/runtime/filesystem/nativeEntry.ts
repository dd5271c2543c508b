import { getSystemErrorMap } from 'node:util'
import type { DirEntries } from '@sandbox-ide/fs-entries'
import type { EntryInfo } from '../../../src/gen/filesystem_pb'
import type { UserDirectory } from '../users'
import { describeEntry, entryInfo } from './entryInfo'

/** What the native reader read of a run of entries: arrays indexed alike, as statDirEntries answers. */
export type NativeRead = Omit<DirEntries, 'names'>

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const symlinkType = 0o120000
const typeBits = 0o170000

/** Whether a mode (with its type bits) is a symlink's, whose target decides what it reports. */
export const isSymlinkMode = (mode: number) => (mode & typeBits) === symlinkType

/** An lstat failure as Node would have thrown it (its code and message), for the caller to map. */
function lstatError(errno: number, path: string): Error {
  const [code, description] = getSystemErrorMap().get(-errno) ?? ['EIO', 'i/o error']
  return Object.assign(new Error(`${code}: ${description}, lstat '${path}'`), { code, errno: -errno })
}

/** The metadata (`user.e2b.*`) of one entry: values that are not UTF-8 are left out, as envd does. */
function metadataOf(attributes: Record<string, Uint8Array> | undefined): Record<string, string> {
  const metadata: Record<string, string> = {}
  if (!attributes) return metadata // nearly every entry: no array made for nothing
  for (const [key, value] of Object.entries(attributes)) {
    try {
      metadata[key] = strictUtf8.decode(value)
    } catch {}
  }
  return metadata
}

/**
 * The EntryInfo of entry `i` of a native read, shown at `path`; a symlink goes through entryInfo,
 * which reads its target. Throws the entry's error (its lstat's, as Node would have) for the caller to map.
 */
export function describeNativeEntry(
  read: NativeRead,
  i: number,
  path: string,
  users: UserDirectory,
): EntryInfo {
  const errno = read.errors[i] as number
  if (errno !== 0) throw lstatError(errno, path)
  const mode = read.modes[i] as number
  if (isSymlinkMode(mode)) return entryInfo(path, users)
  return describeEntry(
    path,
    {
      mode,
      uid: read.uids[i] as number,
      gid: read.gids[i] as number,
      size: read.sizes[i] as bigint,
      mtimeSeconds: read.mtimeSeconds[i] as bigint,
      mtimeNanos: read.mtimeNanos[i] as number,
    },
    metadataOf(read.attributes[i]),
    users,
  )
}
