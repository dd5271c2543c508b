import { stat } from 'node:fs/promises'
import { ConnectError } from '@connectrpc/connect'
import type { EntryInfo } from '../../../src/gen/filesystem_pb'
import { alreadyExists, errnoCode, internal, invalidArgument, messageOf } from '../errors'
import type { User, UserDirectory } from '../users'
import { ensureDirectory } from './ensureDirectory'
import { entryInfo } from './entryInfo'

/**
 * MakeDir: `mkdir -p` owned by `user`. An existing directory is `already_exists` (the SDK turns
 * that into `false`), an existing non-directory `invalid_argument`, a file among the parents
 * `internal` "path is a file", as in envd.
 */
export async function makeDir(path: string, user: User, users: UserDirectory): Promise<EntryInfo> {
  try {
    const existing = await stat(path)
    if (existing.isDirectory()) throw alreadyExists(`directory already exists: ${path}`)
    throw invalidArgument(`path already exists but it is not a directory: ${path}`)
  } catch (err) {
    if (err instanceof ConnectError) throw err
    const code = errnoCode(err)
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw internal(`error getting file info: ${messageOf(err)}`)
  }
  try {
    if (!(await ensureDirectory(path, user))) throw alreadyExists(`directory already exists: ${path}`)
    return entryInfo(path, users)
  } catch (err) {
    if (err instanceof ConnectError) throw err
    throw internal(`error creating directory: ${messageOf(err)}`)
  }
}
