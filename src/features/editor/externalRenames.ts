// Renames made outside the IDE (a `mv` in the terminal, another program), as the watch shows them.
//
// WatchDir has no "moved from A to B" event: a move inside the watched tree arrives as RENAME of
// the old path and CREATE of the new one, in the same batch (the runtime's watcher and envd's
// inotify agree on that). The heuristic pairs them:
//  - a file: RENAME of an open file's path, and exactly one CREATE in the same batch whose entry
//    is a file with the same size and the same modification time (to the nanosecond) as the
//    version the editor holds. A move keeps both, a new file almost never matches both. With no
//    such CREATE, or several, nothing is followed and the open file is checked instead (it then
//    shows as deleted on disk, and keeps its text).
//  - a folder: RENAME of a folder above open files, and exactly one CREATE of a folder in the
//    batch. A folder's entry says nothing about the files in it, so this is only a candidate: the
//    editor follows it only after Stat shows each open file at its new path with the same version.

import type { FileChange } from '../../sandbox/fileWatch'
import { EventType, FileType } from '../../sandbox/sandboxFiles'
import { type DiskVersion, sameVersion, versionOf } from './diskVersion'

/** An open file as the heuristic sees it. */
export interface OpenFile {
  path: string
  version: DiskVersion | undefined
}

/** A rename from one absolute path to another. */
export interface Rename {
  from: string
  to: string
}

/** Renames of open files (certain enough to follow) and of folders above them (to verify). */
export function externalRenames(
  changes: FileChange[],
  open: readonly OpenFile[],
): { files: Rename[]; folders: Rename[] } {
  const files: Rename[] = []
  const folders: Rename[] = []
  const creates = changes.filter((c) => c.type === EventType.CREATE && c.entry)
  const folderCreates = creates.filter((c) => c.entry?.type === FileType.DIRECTORY)
  for (const change of changes) {
    if (change.type !== EventType.RENAME) continue
    const file = open.find((o) => o.path === change.path)
    if (file) {
      const matches = creates.filter(
        (c) => c.entry?.type === FileType.FILE && c.entry && sameVersion(versionOf(c.entry), file.version),
      )
      const [only] = matches
      if (matches.length === 1 && only) files.push({ from: change.path, to: only.path })
      continue
    }
    const above = open.some((o) => o.path.startsWith(`${change.path}/`))
    const [only] = folderCreates
    if (above && folderCreates.length === 1 && only) folders.push({ from: change.path, to: only.path })
  }
  return { files, folders }
}
