import { lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Entries under a folder that other users may not read: the ones a sandbox must not see. */
export interface UnreadableEntries {
  files: string[]
  dirs: string[]
}

/**
 * Lists files and folders under `root` (default /etc) that are not world-readable. A sandbox
 * started by root runs as the owner of root's files, so these would otherwise be readable
 * inside it (/etc/shadow, private keys).
 */
export function findUnreadableEtcEntries(root = '/etc'): UnreadableEntries {
  const found: UnreadableEntries = { files: [], dirs: [] }
  const visit = (dir: string) => {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      return
    }
    for (const name of names) {
      const path = join(dir, name)
      let stat: ReturnType<typeof lstatSync>
      try {
        stat = lstatSync(path)
      } catch {
        continue
      }
      if (stat.isSymbolicLink()) continue
      if (stat.isDirectory()) {
        // A folder must be both listable and enterable by others to be public.
        if ((stat.mode & 0o005) !== 0o005) found.dirs.push(path)
        else visit(path)
      } else if (stat.isFile() && (stat.mode & 0o004) === 0) {
        found.files.push(path)
      }
    }
  }
  visit(root)
  return found
}
