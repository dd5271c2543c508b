import { lstat, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ConnectError } from '@connectrpc/connect'
import type { EntryInfo } from '../../../src/gen/filesystem_pb'
import { errnoCode, internal, messageOf, notFound } from '../errors'
import type { User, UserDirectory } from '../users'
import { ensureDirectory } from './ensureDirectory'
import { entryInfo } from './entryInfo'

/**
 * Move: rename(2) after creating the destination's missing parents (owned by `user`). rename's
 * own semantics stay: an existing destination file is replaced; a non-empty destination
 * directory or another device is `internal`. Returns the destination's EntryInfo.
 */
export async function movePath(
  source: string,
  destination: string,
  user: User,
  users: UserDirectory,
): Promise<EntryInfo> {
  try {
    await lstat(source)
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') throw notFound(`source file not found: ${source}`)
    throw internal(`error getting source info: ${messageOf(err)}`)
  }
  try {
    await ensureDirectory(dirname(destination), user)
    await rename(source, destination)
    return entryInfo(destination, users)
  } catch (err) {
    if (err instanceof ConnectError) throw err
    if (errnoCode(err) === 'ENOENT') throw notFound(`source file not found: ${source}`)
    throw internal(`error renaming: ${messageOf(err)}`)
  }
}
