import { realpath, stat, statfs } from 'node:fs/promises'
import { errnoCode, internal, invalidArgument, messageOf, notFound } from '../errors'

/** statfs(2) magic numbers of NFS, SMB/CIFS (three variants) and FUSE. */
const networkFsMagics = new Set([0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x65735546])

/** Whether a statfs `f_type` is a filesystem whose remote changes inotify never sees. */
export function isNetworkFilesystem(type: number): boolean {
  return networkFsMagics.has(type >>> 0)
}

/**
 * Validates a WatchDir / CreateWatcher path in envd's order (missing → `not_found`, not a
 * directory → `invalid_argument`, network filesystem without `allowNetworkMounts` →
 * `invalid_argument`) and returns the directory's real path, which is what gets watched.
 */
export async function watchTarget(path: string, allowNetworkMounts: boolean): Promise<string> {
  try {
    if (!(await stat(path)).isDirectory()) throw invalidArgument(`path is not a directory: ${path}`)
    if (!allowNetworkMounts && isNetworkFilesystem((await statfs(path)).type))
      throw invalidArgument(`cannot watch path on network filesystem: ${path}`)
    return await realpath(path)
  } catch (err) {
    const code = errnoCode(err)
    if (code === 'ENOENT') throw notFound(`path not found: ${path}`)
    if (code === 'ENOTDIR') throw invalidArgument(`path is not a directory: ${path}`)
    if (code === 'ELOOP') throw invalidArgument(`symlink loop in path: ${path}`)
    if (code === undefined || code.startsWith('ERR_')) throw err
    throw internal(`error checking path ${path}: ${messageOf(err)}`)
  }
}
