import { mkdir, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { errnoCode, internal } from '../errors'
import type { User } from '../users'
import { chownToUser } from './chownToUser'

/** Whether `path` is a directory (following symlinks); undefined when nothing is there. */
async function isDirectory(path: string): Promise<boolean | undefined> {
  try {
    return (await stat(path)).isDirectory()
  } catch (err) {
    const code = errnoCode(err)
    // ENOTDIR: a component further up is a file; the walk upwards will find and name it.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    throw err
  }
}

/**
 * `mkdir -p` with mode 0755, each created directory owned by `user` (envd's EnsureDirs).
 * Returns whether `path` itself was created. A component that exists but is not a directory is
 * `internal` "path is a file: …", as in envd.
 */
export async function ensureDirectory(path: string, user: User): Promise<boolean> {
  // Find the deepest existing ancestor, then create downwards from there.
  const missing: string[] = []
  let current = path
  for (;;) {
    const dir = await isDirectory(current)
    if (dir === true) break
    if (dir === false) throw internal(`path is a file: ${current}`)
    missing.push(current)
    const parent = dirname(current)
    if (parent === current) break
    current = parent
  }
  let createdTarget = false
  for (const dir of missing.reverse()) {
    try {
      await mkdir(dir, 0o755)
      await chownToUser(dir, user)
      if (dir === path) createdTarget = true
    } catch (err) {
      // Someone else made it meanwhile: fine if it is a directory.
      if (errnoCode(err) !== 'EEXIST') throw err
      if ((await isDirectory(dir)) !== true) throw internal(`path is a file: ${dir}`)
    }
  }
  return createdTarget
}
