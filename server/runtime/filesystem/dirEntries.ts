import { readdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { setImmediate } from 'node:timers/promises'
import type { DirEntries } from '@sandbox-ide/fs-entries'
import type { EntryInfo } from '../../../src/gen/filesystem_pb'
import { errnoCode } from '../errors'
import type { UserDirectory } from '../users'
import { entryInfo } from './entryInfo'
import { metadataXattrPrefix } from './fileMetadata'
import { describeNativeEntry, type NativeRead } from './nativeEntry'

/** Entries described between two yields to the event loop, so other calls go on meanwhile. */
export const entriesPerSlice = 2000
// Awaited only every so many entries: an await per entry costs a promise and a microtask each.
const sliceEnds = (i: number) => i > 0 && i % entriesPerSlice === 0

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
  readDirNames(dir: string): Promise<string[]>
  statDirEntries(dir: string, names: readonly string[], prefix: string): Promise<NativeRead>
}

/**
 * Whether the native reader reads in chunks: an addon built before it could (a checkout not
 * rebuilt since) answers big listings whole, at its old speed, rather than on the slower JavaScript path.
 */
export const readsInChunks = typeof nativeReader?.readDirNames === 'function'

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
  if (!native) return describeEach(await readdir(realDir), shownDir, users)
  const read = await native.readDirEntries(realDir, metadataXattrPrefix)
  return describeRead(read.names, read, shownDir, users)
}

/** `names` (entries of `shownDir`) described by entryInfo one by one, the JavaScript path. */
export async function describeEach(names: readonly string[], shownDir: string, users: UserDirectory) {
  const described: DescribedEntry[] = []
  for (const [i, name] of names.entries()) {
    if (sliceEnds(i)) await setImmediate()
    try {
      described.push({ name, info: entryInfo(join(shownDir, name), users) })
    } catch (error) {
      described.push({ name, error })
    }
  }
  return described
}

/** The entries the native reader read for `names`, as DescribedEntry, in their order. */
async function describeRead(
  names: readonly string[],
  read: NativeRead,
  shownDir: string,
  users: UserDirectory,
): Promise<DescribedEntry[]> {
  const described: DescribedEntry[] = []
  for (const [i, name] of names.entries()) {
    if (sliceEnds(i)) await setImmediate()
    try {
      described.push({ name, info: describeNativeEntry(read, i, join(shownDir, name), users) })
    } catch (error) {
      described.push({ name, error })
    }
  }
  return described
}

/** Whether an entry's error says it vanished while the directory was read. */
export const vanished = (error: unknown) => errnoCode(error) === 'ENOENT'
