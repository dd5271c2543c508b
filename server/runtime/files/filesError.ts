import { statfs } from 'node:fs/promises'
import { Code, ConnectError } from '@connectrpc/connect'
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

/**
 * The FilesError for a failed write into `dir`: 507 on a full disk (telling blocks from
 * inodes, as envd does), 400 for an invalid path, 500 with `context` for anything else.
 */
export async function writeFailure(err: unknown, dir: string, context: string): Promise<FilesError> {
  if (err instanceof FilesError) return err
  if (err instanceof ConnectError && err.code === Code.InvalidArgument)
    return new FilesError(400, err.rawMessage)
  const code = errnoCode(err)
  if (code?.startsWith('Z_')) return new FilesError(400, `invalid gzip request body: ${messageOf(err)}`)
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    const inodesLeft = await statfs(dir).then(
      (s) => s.ffree,
      () => 1,
    )
    return new FilesError(
      507,
      inodesLeft === 0 ? 'not enough inodes available' : 'not enough disk space available',
    )
  }
  const message = err instanceof ConnectError ? err.rawMessage : messageOf(err)
  return new FilesError(500, `${context}: ${message}`)
}
