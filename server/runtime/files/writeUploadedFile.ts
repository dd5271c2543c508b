import { constants } from 'node:fs'
import {
  chmod,
  type FileHandle,
  lstat,
  open,
  readlink,
  realpath,
  rename,
  stat,
  unlink,
} from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { errnoCode } from '../errors'
import { chownToUser } from '../filesystem/chownToUser'
import { ensureDirectory } from '../filesystem/ensureDirectory'
import { writeMetadata } from '../filesystem/fileMetadata'
import { readWatchEvents, watchEventsSettled } from '../filesystem/inotify'
import { uploadTempName } from '../filesystem/uploadTempName'
import type { User } from '../users'
import { FilesError, isNoSpace, spaceLeft, writeFailure } from './filesError'
import type { UploadJournal } from './uploadJournal'

/**
 * Where writing `path` really lands: envd opens it with O_TRUNC, which follows a symlink, so
 * an upload to a link replaces the link's target, not the link.
 */
async function writeTarget(path: string): Promise<string> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return path
  } catch {
    return path
  }
  try {
    return await realpath(path)
  } catch {
    // A dangling link: O_CREAT would create the file it points at.
    return resolve(dirname(path), await readlink(path))
  }
}

/** The permission bits of an existing file at `path` (kept on overwrite), if there is one. */
async function existingMode(path: string): Promise<number | undefined> {
  try {
    const st = await stat(path)
    if (st.isDirectory()) throw new FilesError(400, `path '${path}' is a directory`)
    return st.mode & 0o7777
  } catch (err) {
    if (err instanceof FilesError) throw err
    if (errnoCode(err) === 'ENOENT') return undefined
    throw err
  }
}

/** Room a copy needs beyond its bytes (ext4's extent blocks, rounding to blocks), with margin. */
const copySlack = 1024 * 1024

/** Bytes one write(2) of the copy takes: a file up to this size is one write, one WRITE event. */
const copyChunk = 1024 * 1024

/** Removes a temporary file, if it is still there. */
const removeTemp = (temp: string | undefined) =>
  temp === undefined ? undefined : unlink(temp).catch(() => {})

/** Copies `temp` into the open `out` from its start, one write(2) per chunk. */
async function copyInto(temp: string, out: FileHandle, size: number): Promise<void> {
  const input = await open(temp, 'r')
  try {
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(size, copyChunk)))
    for (let position = 0; ; ) {
      const { bytesRead } = await input.read(buffer, 0, buffer.length, position)
      if (bytesRead === 0) return
      for (let done = 0; done < bytesRead; ) {
        const { bytesWritten } = await out.write(buffer, done, bytesRead - done, position + done)
        done += bytesWritten
      }
      position += bytesRead
      // Each write's WRITE is taken now, so the events do not depend on when the loop polls.
      readWatchEvents()
    }
  } finally {
    await input.close()
  }
}

/**
 * Writes the complete temporary file into `target` in place with envd's calls, in envd's order,
 * when the disk has room for a second copy: an existing file is given to the user, then opened
 * with O_TRUNC (the same inode; watchers see CHMOD, WRITE); a new one is created, then given to
 * the user (CREATE, CHMOD); then the bytes (WRITE, one per write(2)): 'copied'. Else 'no room',
 * nothing changed. A disk that fills up during the copy (or a quota, which statfs does not show)
 * has cut the target short: the temporary file is renamed over it at once, 'renamed'.
 */
async function writeInPlace(
  temp: string,
  target: string,
  dir: string,
  size: number,
  mode: number | undefined,
  user: User,
  journal: UploadJournal | undefined,
): Promise<'copied' | 'no room' | 'renamed'> {
  const left = await spaceLeft(dir)
  if (left !== undefined && left.bytes < size + copySlack) return 'no room'
  let out: FileHandle | undefined
  // Written down before the target is cut to nothing, struck off once its new bytes are on disk.
  const strike = await journal?.begin(temp, target)
  try {
    if (mode !== undefined) await chownToUser(target, user)
    out = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o666)
    // The truncation's WRITE, apart from the data's (inotify would merge the two if both waited).
    readWatchEvents()
    if (mode === undefined) await chownToUser(target, user)
    await copyInto(temp, out, size)
    if (strike) await out.sync()
    return 'copied'
  } catch (err) {
    if (isNoSpace(err)) {
      await rename(temp, target)
      return 'renamed'
    }
    // A file this upload created and could not fill goes; an old one keeps what was copied.
    if (mode === undefined && out) await unlink(target).catch(() => {})
    throw err
  } finally {
    await out?.close()
    await strike?.()
  }
}

/** Flushes a file's bytes to the disk. */
async function flushFile(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Whether chown took bits `mode` had (setuid, setgid): the old mode must be set again. */
async function modeChanged(path: string, mode: number): Promise<boolean> {
  return ((await stat(path)).mode & 0o7777) !== mode
}

/**
 * Streams `source` into `path` for `user`, as envd's upload does: missing parents are created
 * (0755, owned by the user), an existing file keeps its mode, and the file is owned by the user
 * and gets exactly `metadata`. The body is received into a hidden temporary file beside the target
 * first, so a request that fails or is cut off half-way, or a disk that fills up, leaves the old
 * file whole (envd would truncate it) and no temporary file. The complete file is then written in
 * place, as envd's O_TRUNC write (the same inode, so hard links see the new content and watchers
 * see WRITE), where the disk has room for it twice; where it has not, the temporary file, given
 * the owner, mode and metadata first, is renamed over the target (a new inode, all at once).
 * Watchers see what envd's upload gives them: CREATE, CHMOD, WRITE for a new file, CHMOD, WRITE,
 * WRITE for an existing one (one more WRITE per MiB past the first, one CHMOD per metadata change).
 */
export async function writeUploadedFile(
  source: Readable,
  path: string,
  user: User,
  metadata: Record<string, string>,
  /** Where an in-place write is written down while it runs (the runtime's), so a kill loses nothing. */
  journal?: UploadJournal,
): Promise<void> {
  const target = await writeTarget(path)
  const dir = dirname(target)
  try {
    await ensureDirectory(dir, user)
  } catch (err) {
    source.resume()
    throw await writeFailure(err, dir, 'error ensuring directories')
  }
  let temp: string | undefined
  try {
    const mode = await existingMode(target)
    temp = join(dir, uploadTempName(mode !== undefined))
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666)
    await pipeline(source, handle.createWriteStream())
    // On disk before the target is touched: after a kill, the journal copies it again.
    if (journal) await flushFile(temp)
    if (mode !== undefined) await chmod(temp, mode)
    const written = temp
    // After chown, which clears setuid bits, and unmasked, so the old mode comes back exactly.
    const restoreMode = async (file: string) => {
      if (mode !== undefined && (await modeChanged(file, mode))) await chmod(file, mode)
    }
    const placed = await writeInPlace(written, target, dir, (await stat(written)).size, mode, user, journal)
    if (placed === 'no room') {
      // Owned, moded and labelled before it takes the target's place, so that happens at once.
      await chownToUser(written, user)
      await restoreMode(written)
      await writeMetadata(written, metadata)
      await rename(written, target)
    } else {
      if (placed === 'renamed') await chownToUser(target, user)
      await restoreMode(target)
      await writeMetadata(target, metadata)
    }
    if (placed !== 'copied') temp = undefined
    await removeTemp(temp)
    temp = undefined
    // Answered once watchers hold its events, so a poll right after the answer finds them.
    await watchEventsSettled()
  } catch (err) {
    source.resume()
    // Gone before the failure is told, so the free space it tells is what is left.
    await removeTemp(temp)
    temp = undefined
    throw await writeFailure(err, dir, 'error writing file')
  } finally {
    await removeTemp(temp)
  }
}
