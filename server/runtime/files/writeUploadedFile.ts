import { constants } from 'node:fs'
import { chmod, copyFile, lstat, open, readlink, realpath, stat, unlink } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { errnoCode } from '../errors'
import { chownToUser } from '../filesystem/chownToUser'
import { ensureDirectory } from '../filesystem/ensureDirectory'
import { writeMetadata } from '../filesystem/fileMetadata'
import { uploadTempName } from '../filesystem/uploadTempName'
import type { User } from '../users'
import { FilesError, writeFailure } from './filesError'

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

/**
 * Streams `source` into `path` for `user`, as envd's upload does: missing parents are created
 * (0755, owned by the user), the file is written in place (the same inode, so hard links see the
 * new content and watchers see WRITE, as with envd's O_TRUNC write), an existing file keeps its
 * mode, and the file is owned by the user and gets exactly `metadata`. The body is received into
 * a hidden temporary file beside the target first and copied in only once complete, so a
 * request that fails or is cut off half-way never leaves a truncated file (envd would). A
 * failure of the copy itself (a full disk) can, as with envd. The copy needs the upload's size
 * twice on disk for a moment.
 */
export async function writeUploadedFile(
  source: Readable,
  path: string,
  user: User,
  metadata: Record<string, string>,
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
    temp = join(dir, uploadTempName())
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666)
    await pipeline(source, handle.createWriteStream())
    // copyFile opens the target with O_TRUNC (never a new inode) and gives it the temp's mode.
    if (mode !== undefined) await chmod(temp, mode)
    try {
      await copyFile(temp, target)
    } catch (err) {
      // A file this upload created and could not fill goes; an old one keeps what was copied.
      if (mode === undefined) await unlink(target).catch(() => {})
      throw err
    }
    await chownToUser(target, user)
    // After chown, which clears setuid bits, and unmasked, so the old mode comes back exactly.
    if (mode !== undefined) await chmod(target, mode)
    await writeMetadata(target, metadata)
  } catch (err) {
    source.resume()
    throw await writeFailure(err, dir, 'error writing file')
  } finally {
    if (temp !== undefined) await unlink(temp).catch(() => {})
  }
}
