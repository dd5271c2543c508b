import { useEffect, useState } from 'react'
import type { FileWatch } from '../../sandbox/fileWatch'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { reportErrors } from '../../ui/notifications'
import { FileTree } from './fileTree'

/** Lists a folder into the tree, with the runtime's message on failure while the sandbox runs. */
export async function loadDir(session: SandboxSession, tree: FileTree, path: string): Promise<void> {
  tree.setLoading(path, true)
  try {
    tree.setListing(path, await session.files.list(path))
  } catch (err) {
    tree.setLoading(path, false)
    // While the sandbox is not running (reconnecting, paused) the toolbar says so, and the watch
    // lists what is open again once it is back: a notice per folder would only cover the page.
    if (session.getSnapshot().state.kind !== 'running') return
    await reportErrors(`Listing ${path} failed`, () => Promise.reject(err))
  }
}

/**
 * The explorer's tree for a session: its home folder, listed lazily per expanded folder, kept live
 * by the shared file watch (entries from events, a Stat where an event carries none), and listed
 * again after the watch missed events (it has no cursor).
 */
export function useFileTree(session: SandboxSession, watch: FileWatch): FileTree | undefined {
  const [tree, setTree] = useState<FileTree>()
  useEffect(() => {
    let current: FileTree | undefined
    let stopped = false
    const start = async () => {
      if (current || session.getSnapshot().state.kind !== 'running') return
      const home = await session.files.home().catch(() => undefined)
      if (!home || stopped || current) return
      current = new FileTree(home)
      setTree(current)
      await loadDir(session, current, home)
    }
    const unsubscribeSession = session.subscribe(() => void start())
    void start()
    const unsubscribeWatch = watch.subscribe((notice) => {
      const t = current
      if (!t) return
      if (notice.kind === 'resync') {
        for (const dir of t.visibleDirs()) void loadDir(session, t, dir)
        return
      }
      for (const path of t.apply(notice.changes)) {
        void session.files
          .stat(path)
          .then((entry) => t.upsert(path, entry))
          .catch(() => {})
      }
    })
    return () => {
      stopped = true
      unsubscribeSession()
      unsubscribeWatch()
    }
  }, [session, watch])
  return tree
}
