import { constants, lstatSync, realpathSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import { type Timestamp, TimestampSchema } from '@bufbuild/protobuf/wkt'
import { type EntryInfo, EntryInfoSchema, FileType } from '../../../src/gen/filesystem_pb'
import type { UserDirectory } from '../users'
import { readMetadata } from './fileMetadata'
import { fileModeString } from './fileModeString'

/** FILE, DIRECTORY, or UNSPECIFIED for anything else (devices, pipes, sockets). */
export function fileTypeOf(mode: number): FileType {
  const type = mode & constants.S_IFMT
  if (type === constants.S_IFREG) return FileType.FILE
  if (type === constants.S_IFDIR) return FileType.DIRECTORY
  return FileType.UNSPECIFIED
}

/** What an entry's lstat says, as `describeEntry` needs it (a native listing gives the same). */
export interface EntryStat {
  mode: number
  uid: number
  gid: number
  size: bigint
  mtimeSeconds: bigint
  mtimeNanos: number
}

/** A Timestamp as protobuf-es makes one; undefined for the epoch itself, as envd omits a zero time. */
function timestamp(seconds: bigint, nanos: number): Timestamp | undefined {
  if (seconds === 0n && nanos === 0) return undefined
  return { $typeName: TimestampSchema.typeName, seconds, nanos }
}

/**
 * The EntryInfo of an entry that is not a symlink, from its lstat and metadata: the same message
 * `create(EntryInfoSchema, …)` makes (a test holds them equal), built as the plain object
 * protobuf-es messages are, since a listing builds 100,000 of them.
 */
export function describeEntry(
  path: string,
  st: EntryStat,
  metadata: Record<string, string>,
  users: UserDirectory,
): EntryInfo {
  const info: EntryInfo = {
    $typeName: EntryInfoSchema.typeName,
    name: basename(path),
    type: fileTypeOf(st.mode),
    path,
    size: st.size,
    mode: st.mode & 0o777,
    permissions: fileModeString(st.mode),
    owner: users.userName(st.uid),
    group: users.groupName(st.gid),
    metadata,
  }
  const modified = timestamp(st.mtimeSeconds, st.mtimeNanos)
  if (modified) info.modifiedTime = modified
  return info
}

const nsPerSecond = 1_000_000_000n

/**
 * EntryInfo for `path` as envd fills it (envd-api.md §4.2): lstat for size, owner and the mode
 * string; a symlink reports its target's type and permission bits plus the fully resolved target
 * (a broken one: UNSPECIFIED, mode 0, its own path). `path` is reported as given. Throws the
 * lstat error (ENOENT and so on) for the caller to map.
 *
 * Synchronous on purpose: these are metadata calls the kernel answers from its caches, and going
 * through the thread pool costs ten times more (100,000 async lstats take about a second). A big
 * listing goes through the native reader instead (dirEntries.ts).
 */
export function entryInfo(path: string, users: UserDirectory): EntryInfo {
  const st = lstatSync(path, { bigint: true })
  const lmode = Number(st.mode)
  const stat: EntryStat = {
    mode: lmode,
    uid: Number(st.uid),
    gid: Number(st.gid),
    size: st.size,
    mtimeSeconds: st.mtimeNs / nsPerSecond - (st.mtimeNs % nsPerSecond < 0n ? 1n : 0n),
    mtimeNanos: Number(((st.mtimeNs % nsPerSecond) + nsPerSecond) % nsPerSecond),
  }
  const info = describeEntry(path, stat, readMetadata(path), users)
  if ((lmode & constants.S_IFMT) !== constants.S_IFLNK) return info
  // The link's own lstat, but its target's type and permission bits, and where it leads.
  info.type = FileType.UNSPECIFIED
  info.mode = 0
  info.symlinkTarget = path
  try {
    const target = statSync(path)
    info.type = fileTypeOf(target.mode)
    info.mode = target.mode & 0o777
    info.symlinkTarget = realpathSync(path)
  } catch {
    // Broken link or a loop: keep UNSPECIFIED and the link's own path.
  }
  return info
}
