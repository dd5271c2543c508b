import { realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { type EntryInfo, FileType } from '../../../src/gen/filesystem_pb'
import {
  errnoCode,
  failedPrecondition,
  internal,
  invalidArgument,
  messageOf,
  notFound,
  resourceExhausted,
} from '../errors'
import type { UserDirectory } from '../users'
import { byteOrder } from './byteOrder'
import { encodeInChunks } from './dirChunks'
import { type DescribedEntry, describeDirectory, vanished } from './dirEntries'

/**
 * Most entries one ListDir answers. envd has no bound: a listing of `/` at any depth walks the
 * whole system for seconds and answers tens of megabytes. A project with its node_modules at
 * depth 10 stays below it; past it the call fails at once with resource_exhausted.
 */
export const maxListedEntries = 100_000

/** Resolves the listed directory through symlinks, with envd's error codes. */
async function resolveListRoot(path: string): Promise<string> {
  let real: string
  try {
    real = await realpath(path)
  } catch (err) {
    const code = errnoCode(err)
    if (code === 'ENOENT') throw notFound(`path not found: ${path}`)
    if (code === 'ELOOP') throw failedPrecondition(`symlink loop or too many links in path: ${path}`)
    if (code === 'ENOTDIR') throw invalidArgument(`path is not a directory: ${path}`)
    throw internal(`error resolving path ${path}: ${messageOf(err)}`)
  }
  let isDir: boolean
  try {
    isDir = (await stat(real)).isDirectory()
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') throw notFound(`path not found: ${path}`)
    throw internal(`error getting file info: ${messageOf(err)}`)
  }
  if (!isDir) throw invalidArgument(`path is not a directory: ${path}`)
  return real
}

/**
 * ListDir (envd-api.md §4.3): depth 0 means 1; depth N lists everything at most N levels below
 * `path`, lexically and depth-first pre-order, never the directory itself. The root may be a
 * symlink; symlinked subdirectories are listed but not entered. Entries report `path` joined
 * with their relative name. A read error anywhere fails the whole call, as in envd; so does
 * a listing of more than `limit` entries (resource_exhausted), which envd does not bound.
 */
export async function listDir(
  path: string,
  depth: number,
  users: UserDirectory,
  limit = maxListedEntries,
): Promise<EntryInfo[]> {
  const maxDepth = Math.max(depth, 1)
  const realRoot = await resolveListRoot(path)
  const entries: EntryInfo[] = []

  const walk = async (realDir: string, shownDir: string, level: number, isRoot: boolean): Promise<void> => {
    let described: DescribedEntry[]
    try {
      described = await describeDirectory(realDir, shownDir, users)
    } catch (err) {
      const code = errnoCode(err)
      if (!isRoot && (code === 'ENOENT' || code === 'ENOTDIR')) return
      throw internal(`error reading directory ${shownDir}: ${messageOf(err)}`)
    }
    described.sort((a, b) => byteOrder(a.name, b.name))
    for (const entry of described) {
      if ('error' in entry) {
        if (vanished(entry.error)) continue // vanished during the walk
        throw internal(`error reading directory ${shownDir}: ${messageOf(entry.error)}`)
      }
      const { info } = entry
      if (entries.push(info) > limit)
        throw resourceExhausted(
          `more than ${limit} entries under ${path} at depth ${maxDepth}: list with a smaller depth`,
        )
      // A symlink to a directory has symlinkTarget set and is not entered, as in Go's WalkDir.
      const isRealDir = info.symlinkTarget === undefined && info.type === FileType.DIRECTORY
      if (isRealDir && level < maxDepth)
        await walk(join(realDir, entry.name), join(shownDir, entry.name), level + 1, false)
    }
  }

  await walk(realRoot, path, 1, true)
  return entries
}

/** A listing of one level read in chunks: how many names it has, then their bytes chunk by chunk. */
export interface ChunkedListing {
  count: number
  /**
   * Its entries as a ListDirResponse's bytes, in envd's order, a piece a chunk; one that vanished
   * meanwhile is left out; a worse error throws `internal`.
   */
  chunks: AsyncGenerator<Buffer, void, undefined>
}

/**
 * ListDir at depth 1 in protobuf's binary encoding, in chunks, for an answer sent as it is read:
 * the bytes of what listDir answers, in the same order, with the same errors for what is known
 * before the first entry (the path, the directory's read, the bound on entries) thrown here,
 * before any chunk.
 */
export async function listDirInChunks(
  path: string,
  users: UserDirectory,
  limit = maxListedEntries,
): Promise<ChunkedListing> {
  const realRoot = await resolveListRoot(path)
  let read: Awaited<ReturnType<typeof encodeInChunks>>
  try {
    read = await encodeInChunks(realRoot, path, users)
  } catch (err) {
    throw internal(`error reading directory ${path}: ${messageOf(err)}`)
  }
  if (read.count > limit) {
    await read.chunks.return()
    throw resourceExhausted(`more than ${limit} entries under ${path} at depth 1: list with a smaller depth`)
  }
  async function* chunks(): AsyncGenerator<Buffer, void, undefined> {
    try {
      yield* read.chunks
    } catch (err) {
      // The directory could not be opened again for a chunk, or an entry could not be read.
      throw internal(`error reading directory ${path}: ${messageOf(err)}`)
    } finally {
      await read.chunks.return()
    }
  }
  return { count: read.count, chunks: chunks() }
}
