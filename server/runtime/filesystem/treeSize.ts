import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Whether the tree under `root` holds more than `max` directories (itself included), counted by
 * names alone and stopping as soon as it does: a tree too large for a watch is refused in a
 * fraction of the time a scan (an lstat of every entry) would take to find out.
 */
export async function hasMoreDirsThan(root: string, max: number): Promise<boolean> {
  const queue = [root]
  let found = 1
  for (let dir = queue.pop(); dir !== undefined; dir = queue.pop()) {
    let dirents: Dirent[]
    try {
      dirents = await readdir(dir, { withFileTypes: true })
    } catch {
      continue // the watch itself reports what matters
    }
    for (const d of dirents) {
      if (!d.isDirectory()) continue
      if (++found > max) return true
      queue.push(join(dir, d.name))
    }
  }
  return false
}
