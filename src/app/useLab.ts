import { useEffect } from 'react'
import type { EditorManager } from '../features/editor/EditorManager'
import { LabController, type LabSnapshot, noLabSnapshot } from '../features/lab/LabController'
import type { FileWatch } from '../sandbox/fileWatch'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { useDisposable } from '../ui/useDisposable'
import { useExternalStore } from '../ui/useExternalStore'
import { linkLabToEditor } from './linkLabToEditor'

const noLab = { subscribe: () => () => {}, getSnapshot: () => noLabSnapshot }

/** The session's teaching lab (if its sandbox has one), linked to the editor. */
export function useLab(
  session: SandboxSession,
  watch: FileWatch | undefined,
  editor: EditorManager | undefined,
): { lab: LabController | undefined; snapshot: LabSnapshot } {
  // Made once the file watch exists: the lab reads its manifest again whenever `.lab/` changes.
  const lab = useDisposable(() => watch && new LabController(session, watch), [session, watch])
  const snapshot = useExternalStore(lab ?? noLab)
  useEffect(() => (lab && editor ? linkLabToEditor(lab, editor) : undefined), [lab, editor])
  return { lab, snapshot }
}
