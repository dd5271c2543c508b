import { readdir } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { setImmediate } from 'node:timers/promises'
import type { EntryInfo } from '../../../src/gen/filesystem_pb'
import type { UserDirectory } from '../users'
import { byteOrder } from './byteOrder'
import { describeEach, entriesPerSlice, type NativeReader, nativeReader, vanished } from './dirEntries'
import { metadataXattrPrefix } from './fileMetadata'
import { encodeEntries } from './listingBinary'
import { NativeChunkWriter } from './nativeChunkBinary'
import type { NativeRead } from './nativeEntry'

/** Entries a chunk of a listing holds: what the first bytes of a big listing wait for. */
export const entriesPerChunk = 4096

/**
 * Chunks read at once, each on a thread of libuv's pool: no more than the cores, and one of the
 * pool's four threads always left to the sandbox's other calls.
 */
const chunksAtOnce = Math.max(1, Math.min(availableParallelism(), 3))

/** A directory read in chunks: how many entries it has, then their bytes chunk by chunk. */
export interface ChunkedDirectory {
  count: number
  /**
   * Each chunk's entries as a ListDirResponse's bytes (encodeEntries'), in the order of the names'
   * bytes (envd's): an entry that vanished meanwhile is left out; another entry's error fails its chunk.
   */
  chunks: AsyncGenerator<Buffer, void, undefined>
}

/** Leaves out an entry that vanished while the directory was read; fails the chunk for any other error. */
function leaveOutVanished(error: unknown): void {
  if (!vanished(error)) throw error
}

/** A chunk the native reader read, written as bytes from its arrays, a slice at a time between yields. */
async function encodeRead(names: string[], read: NativeRead, shownDir: string, users: UserDirectory) {
  const writer = new NativeChunkWriter(names, read, shownDir, users, leaveOutVanished)
  for (let end = 0; end < names.length; ) {
    if (end > 0) await setImmediate()
    end = Math.min(end + entriesPerSlice, names.length)
    writer.writeUpTo(end)
  }
  return writer.bytes()
}

/** A chunk described by entryInfo one by one (the JavaScript path), then encoded. */
async function encodeEach(names: string[], shownDir: string, users: UserDirectory) {
  const entries: EntryInfo[] = []
  for (const entry of await describeEach(names, shownDir, users))
    if ('info' in entry) entries.push(entry.info)
    else leaveOutVanished(entry.error)
  return encodeEntries(entries)
}

/**
 * The entries of `realDir` (shown under `shownDir`) as ListDir's bytes, sorted and in chunks: the
 * names are read first, then a few chunks at a time are read on libuv's pool and handed out in
 * order as each is done, so the first ones can go on their way while the rest are read. Throws
 * what reading the directory itself threw; a chunk throws what opening it again did, or the
 * error of an entry that did not vanish.
 */
export async function encodeInChunks(
  realDir: string,
  shownDir: string,
  users: UserDirectory,
  native: NativeReader | undefined = nativeReader,
  chunkSize = entriesPerChunk,
): Promise<ChunkedDirectory> {
  const names = native ? await native.readDirNames(realDir) : (await readdir(realDir)).sort(byteOrder)
  const encodeChunk = native
    ? async (chunk: string[]) =>
        encodeRead(chunk, await native.statDirEntries(realDir, chunk, metadataXattrPrefix), shownDir, users)
    : (chunk: string[]) => encodeEach(chunk, shownDir, users)
  async function* chunks(): AsyncGenerator<Buffer, void, undefined> {
    const reading: Promise<Buffer>[] = []
    let next = 0
    const readNext = () => {
      const chunk = encodeChunk(names.slice(next, next + chunkSize))
      next += chunkSize
      // Awaited in turn; one that fails before its turn (or after the reader stopped) is not unhandled.
      chunk.catch(() => {})
      reading.push(chunk)
    }
    while (next < names.length && reading.length < chunksAtOnce) readNext()
    for (let chunk = reading.shift(); chunk; chunk = reading.shift()) {
      const encoded = await chunk
      if (next < names.length) readNext()
      yield encoded
    }
  }
  return { count: names.length, chunks: chunks() }
}
