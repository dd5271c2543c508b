import { useEffect, useState } from 'react'
import type { FileWatch } from '../../sandbox/fileWatch'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { pageNotices } from '../../ui/notifications'
import { EditorManager } from './EditorManager'

/** The open files of a session, alive as long as the workbench (not the editor panel) is. */
export function useEditorManager(
  session: SandboxSession,
  watch: FileWatch | undefined,
): EditorManager | undefined {
  const [manager, setManager] = useState<EditorManager>()
  useEffect(() => {
    if (!watch) return
    const next = new EditorManager(session, watch, pageNotices)
    setManager(next)
    return () => {
      setManager(undefined)
      next.dispose()
    }
  }, [session, watch])
  return manager
}
