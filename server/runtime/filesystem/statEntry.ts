import type { EntryInfo } from '../../../src/gen/filesystem_pb'
import { errnoCode, internal, messageOf, notFound } from '../errors'
import type { UserDirectory } from '../users'
import { entryInfo } from './entryInfo'

/** Stat: EntryInfo of `path`; missing is `not_found`, anything else (ENOTDIR too) `internal`. */
export async function statEntry(path: string, users: UserDirectory): Promise<EntryInfo> {
  try {
    return entryInfo(path, users)
  } catch (err) {
    if (errnoCode(err) === 'ENOENT')
      throw notFound(`file not found: lstat ${path}: no such file or directory`)
    throw internal(`error getting file info: ${messageOf(err)}`)
  }
}
