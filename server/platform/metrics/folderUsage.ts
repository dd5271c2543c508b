import { lstatSync, readdirSync, statfsSync } from 'node:fs'
import { join } from 'node:path'

/** The disk space a folder's files take (their allocated blocks, as `du` counts them). */
export function folderBytes(root: string, maxEntries = 200_000): number {
  let bytes = 0
  let seen = 0
  const folders = [root]
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let names: string[]
    try {
      names = readdirSync(folder)
    } catch {
      continue
    }
    for (const name of names) {
      // A home with millions of files is counted in part: the figure is a floor, never a stall.
      if (++seen > maxEntries) return bytes
      try {
        const entry = lstatSync(join(folder, name))
        bytes += entry.blocks * 512
        if (entry.isDirectory()) folders.push(join(folder, name))
      } catch {}
    }
  }
  return bytes
}

/** The size of the file system `path` is on. */
export function fileSystemBytes(path: string): number {
  const fs = statfsSync(path)
  return fs.blocks * fs.bsize
}

/** What of the file system `path` is on is used: for a file system that is one sandbox's alone. */
export function fileSystemUsedBytes(path: string): number {
  const fs = statfsSync(path)
  return (fs.blocks - fs.bfree) * fs.bsize
}
