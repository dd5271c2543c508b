import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { setImmediate } from 'node:timers/promises'
import { getSystemErrorMap } from 'node:util'
import type { DirEntries } from '@sandbox-ide/fs-entries'
import type { EntryInfo } from '../../../src/gen/filesystem_pb'
import { errnoCode } from '../errors'
import type { UserDirectory } from '../users'
import { describeEntry, entryInfo } from './entryInfo'
import { metadataXattrPrefix } from './fileMetadata'

/** Entries described between two yields to the event loop, so other calls go on meanwhile. */
const entriesPerSlice = 2000

/**
 * The native reader (packages/fs-entries), where it was built; without it every listing takes the
 * JavaScript path, which answers the same entries at about a third of the speed. Bound into each
 * sandbox beside node-pty; loaded by name so that a runtime without it still starts.
 */
export const nativeReader = (() => {
  try {
    return createRequire(import.meta.url)('@sandbox-ide/fs-entries') as NativeReader
  } catch {
    return undefined
  }
})()

/** What the native package offers. */
export interface NativeReader {
  readDirEntries(dir: string, prefix: string): Promise<DirEntries>
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const symlinkType = 0o120000
const typeBits = 0o170000

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

/** One entry of a directory: its name and its EntryInfo, or the error that kept it from being read. */
export type DescribedEntry = { name: string; info: EntryInfo } | { name: string; error: unknown }

/**
 * The entries of `realDir` (shown under `shownDir`), in no order the caller may rely on. The
 * native reader stats every entry on a thread of libuv's pool; symlinks, whose targets decide
 * what they report, and everything without the reader, go through `entryInfo`. Throws what
 * reading the directory itself threw (a Node-style error with its `code`).
 */
export async function describeDirectory(
  realDir: string,
  shownDir: string,
  users: UserDirectory,
  native: NativeReader | undefined = nativeReader,
): Promise<DescribedEntry[]> {
  const described: DescribedEntry[] = []
  // Awaited only every so many entries: an await per entry costs a promise and a microtask each.
  const sliceEnds = (i: number) => i > 0 && i % entriesPerSlice === 0
  if (!native) {
    const dirents: Dirent[] = await readdir(realDir, { withFileTypes: true })
    for (const [i, { name }] of dirents.entries()) {
      if (sliceEnds(i)) await setImmediate()
      try {
        described.push({ name, info: entryInfo(join(shownDir, name), users) })
      } catch (error) {
        described.push({ name, error })
      }
    }
    return described
  }
  const read = await native.readDirEntries(realDir, metadataXattrPrefix)
  for (const [i, name] of read.names.entries()) {
    if (sliceEnds(i)) await setImmediate()
    const path = join(shownDir, name)
    const errno = read.errors[i] as number
    const mode = read.modes[i] as number
    try {
      if (errno !== 0) throw lstatError(errno, path)
      const info =
        (mode & typeBits) === symlinkType
          ? entryInfo(path, users)
          : describeEntry(
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
      described.push({ name, info })
    } catch (error) {
      described.push({ name, error })
    }
  }
  return described
}

/** Whether an entry's error says it vanished while the directory was read. */
export const vanished = (error: unknown) => errnoCode(error) === 'ENOENT'
