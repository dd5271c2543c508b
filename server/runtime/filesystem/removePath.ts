import { rm } from 'node:fs/promises'
import { internal, invalidArgument, messageOf } from '../errors'

/**
 * Remove: recursive, and a missing path is success (envd's RemoveAll). Unlike envd, an empty
 * request path is refused: it would resolve to the workdir or home and delete all of it.
 */
export async function removePath(requested: string, resolved: string): Promise<void> {
  if (requested === '') throw invalidArgument('path must not be empty: refusing to remove the home directory')
  try {
    await rm(resolved, { recursive: true, force: true })
  } catch (err) {
    throw internal(`error removing file or directory: ${messageOf(err)}`)
  }
}
