import { type Disposable, toDisposable } from '../../../common/lifecycle'
import type { SandboxSession } from '../../../sandbox/SandboxSession'
import type { NoticeSink } from '../../../ui/notifications'
import type { EditorManager } from '../EditorManager'
import { type BackupStore, openBackupStore, unavailableBackupStore } from './backupStore'
import { HotExit } from './HotExit'

/**
 * Hot exit for one workspace: backups of its unsaved text under `scope` (the sandbox, as the
 * layout is kept), and what an earlier page left restored once the sandbox runs (its files can
 * be read then). `me` is this tab, the same across its reloads.
 */
export async function startHotExit(
  editor: EditorManager,
  session: Pick<SandboxSession, 'subscribe' | 'getSnapshot'>,
  { scope, me, notices }: { scope: string; me: string; notices: NoticeSink },
): Promise<Disposable> {
  let store: BackupStore
  try {
    store = await openBackupStore(me)
  } catch (err) {
    store = unavailableBackupStore(err)
  }
  const hotExit = new HotExit(editor, store, scope, notices)
  let stop: (() => void) | undefined
  const restoreOnceRunning = () => {
    if (session.getSnapshot().state.kind !== 'running') return
    stop?.()
    stop = () => {}
    void hotExit.restore()
  }
  stop = session.subscribe(restoreOnceRunning)
  restoreOnceRunning()
  return toDisposable(() => {
    stop?.()
    hotExit.dispose()
  })
}
