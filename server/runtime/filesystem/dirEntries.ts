import { readdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { setImmediate } from 'node:timers/promises'
import { getSystemErrorMap } from 'node:util'
import type { DirEntries } from '@sandbox-ide/fs-entries'
import type { EntryInfo } from '../../../src/gen/filesystem_pb'
import { errnoCode } from '../errors'
import type { UserDirectory } from '../users'
import { byteOrder } from './byteOrder'
import { describeEntry, entryInfo } from './entryInfo'
import { metadataXattrPrefix } from './fileMetadata'

/** Entries described between two yields to the event loop, so other calls go on meanwhile. */
const entriesPerSlice = 2000
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
  statDirEntries(dir: string, names: readonly string[], prefix: string): Promise<Omit<DirEntries, 'names'>>
}

/**
 * Whether the native reader reads in chunks: an addon built before it could (a checkout not
 * rebuilt since) answers big listings whole, at its old speed, rather than on the slower JavaScript path.
 */
export const readsInChunks = typeof nativeReader?.readDirNames === 'function'

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
  if (!native) return describeEach(await readdir(realDir), shownDir, users)
  const read = await native.readDirEntries(realDir, metadataXattrPrefix)
  return describeRead(read.names, read, shownDir, users)
}

/** `names` (entries of `shownDir`) described by entryInfo one by one, the JavaScript path. */
async function describeEach(names: readonly string[], shownDir: string, users: UserDirectory) {
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
  read: Omit<DirEntries, 'names'>,
  shownDir: string,
  users: UserDirectory,
): Promise<DescribedEntry[]> {
  const described: DescribedEntry[] = []
  for (const [i, name] of names.entries()) {
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

/** Entries a chunk of a listing holds: what the first bytes of a big listing wait for. */
export const entriesPerChunk = 4096

/**
 * Chunks read at once, each on a thread of libuv's pool: no more than the cores, and one of the
 * pool's four threads always left to the sandbox's other calls.
 */
const chunksAtOnce = Math.max(1, Math.min(availableParallelism(), 3))

/** A directory read in chunks: how many entries it has, then their descriptions chunk by chunk. */
export interface ChunkedDirectory {
  count: number
  /** DescribedEntry chunks, in the order of the names' bytes (the order describeDirectory's callers sort into). */
  chunks: AsyncGenerator<DescribedEntry[], void, undefined>
}

/**
 * The entries of `realDir` (shown under `shownDir`) as describeDirectory gives them, but sorted and
 * in chunks: the names are read first, then a few chunks at a time are read on libuv's pool and
 * handed out in order as each is done, so the first ones can go on their way while the rest are
 * read. Throws what reading the directory itself threw; a chunk throws what opening it again did.
 */
export async function describeInChunks(
  realDir: string,
  shownDir: string,
  users: UserDirectory,
  native: NativeReader | undefined = nativeReader,
  chunkSize = entriesPerChunk,
): Promise<ChunkedDirectory> {
  const names = native ? await native.readDirNames(realDir) : (await readdir(realDir)).sort(byteOrder)
  const describeChunk = native
    ? async (chunk: string[]) =>
        describeRead(chunk, await native.statDirEntries(realDir, chunk, metadataXattrPrefix), shownDir, users)
    : (chunk: string[]) => describeEach(chunk, shownDir, users)
  async function* chunks(): AsyncGenerator<DescribedEntry[], void, undefined> {
    const reading: Promise<DescribedEntry[]>[] = []
    let next = 0
    const readNext = () => {
      const chunk = describeChunk(names.slice(next, next + chunkSize))
      next += chunkSize
      // Awaited in turn; one that fails before its turn (or after the reader stopped) is not unhandled.
      chunk.catch(() => {})
      reading.push(chunk)
    }
    while (next < names.length && reading.length < chunksAtOnce) readNext()
    for (let chunk = reading.shift(); chunk; chunk = reading.shift()) {
      const described = await chunk
      if (next < names.length) readNext()
      yield described
    }
  }
  return { count: names.length, chunks: chunks() }
}
