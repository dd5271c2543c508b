import type { WatchNotice } from '../../sandbox/fileWatch'
import type { SandboxFiles } from '../../sandbox/sandboxFiles'
import { sameVersion, versionOf } from './diskVersion'
import { externalRenames, type Rename } from './externalRenames'
import { isAtOrUnder, movedPath } from './movedPath'
import type { OpenDocument } from './OpenDocument'

/** The open files a watch notice may concern, and how to follow a rename among them. */
export interface WatchedDocuments {
  documents(): readonly OpenDocument[]
  renamed(from: string, to: string): void
  readonly files: Pick<SandboxFiles, 'stat'>
}

/**
 * Turns the shared FileWatch's notices into work for the open files: a resync checks them all, a
 * rename made outside the IDE is followed (a folder's only once Stat finds every open file under
 * it unchanged at the new place), and any other change checks the files it touches.
 */
export function followWatch(
  watch: { subscribe(listener: (notice: WatchNotice) => void): () => void },
  open: WatchedDocuments,
): () => void {
  return watch.subscribe((notice) => {
    if (notice.kind === 'resync') {
      for (const doc of open.documents()) doc.scheduleCheck()
      return
    }
    const { files, folders } = externalRenames(notice.changes, open.documents())
    for (const rename of files) open.renamed(rename.from, rename.to)
    const touched = new Set<OpenDocument>()
    for (const change of notice.changes) {
      for (const doc of open.documents()) {
        // Files under a folder move wait for followFolder, instead of showing as deleted meanwhile.
        if (folders.some((f) => isAtOrUnder(doc.path, f.from))) continue
        if (isAtOrUnder(doc.path, change.path)) touched.add(doc)
      }
    }
    for (const doc of touched) doc.scheduleCheck()
    for (const folder of folders) void followFolder(open, folder)
  })
}

async function followFolder(open: WatchedDocuments, { from, to }: Rename): Promise<void> {
  const under = open.documents().filter((d) => isAtOrUnder(d.path, from))
  const found = await Promise.all(
    under.map(async (doc) => {
      const target = movedPath(doc.path, from, to)
      if (target === undefined) return false
      try {
        return sameVersion(versionOf(await open.files.stat(target)), doc.version)
      } catch {
        return false
      }
    }),
  )
  if (found.every(Boolean)) open.renamed(from, to)
  else for (const doc of under) doc.scheduleCheck()
}
