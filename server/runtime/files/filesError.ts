import { statfs } from 'node:fs/promises'
import { Code, ConnectError } from '@connectrpc/connect'
import { noSpaceFree, noSpaceQuota } from '../../../src/contract/runtimeExtensions'
import { errnoCode, messageOf } from '../errors'

/** A /files failure with the HTTP status and message envd answers with (envd-api.md §7). */
export class FilesError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** Whether a failure is the disk (or the user's quota) running out of room. */
export const isNoSpace = (err: unknown) => {
  const code = errnoCode(err)
  return code === 'ENOSPC' || code === 'EDQUOT'
}

/** What the file system holding `dir` has left: bytes an unprivileged write may take, and inodes. */
export async function spaceLeft(dir: string): Promise<{ bytes: number; inodes: number } | undefined> {
  try {
    const s = await statfs(dir)
    return { bytes: s.bavail * s.bsize, inodes: s.ffree }
  } catch {
    return undefined
  }
}

/**
 * The FilesError for a failed write into `dir`: 507 on a full disk (telling blocks from
 * inodes, as envd does, and adding what is left: see `noSpaceFree`), 400 for an invalid path,
 * 500 with `context` for anything else. Called once the failed write is cleaned up, so the free
 * space it tells is what a smaller write could still use.
 */
export async function writeFailure(err: unknown, dir: string, context: string): Promise<FilesError> {
  if (err instanceof FilesError) return err
  if (err instanceof ConnectError && err.code === Code.InvalidArgument)
    return new FilesError(400, err.rawMessage)
  const code = errnoCode(err)
  if (code?.startsWith('Z_')) return new FilesError(400, `invalid gzip request body: ${messageOf(err)}`)
  if (code === 'EDQUOT') return new FilesError(507, `not enough disk space available${noSpaceQuota}`)
  if (code === 'ENOSPC') {
    const left = await spaceLeft(dir)
    const words = left?.inodes === 0 ? 'not enough inodes available' : 'not enough disk space available'
    return new FilesError(507, left ? `${words}${noSpaceFree(left.bytes)}` : words)
  }
  const message = err instanceof ConnectError ? err.rawMessage : messageOf(err)
  return new FilesError(500, `${context}: ${message}`)
}
