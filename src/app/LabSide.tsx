import { useCallback } from 'react'
import type { EditorManager } from '../features/editor/EditorManager'
import type { LabController } from '../features/lab/LabController'
import { LabPanel } from '../features/lab/LabPanel'
import { useExternalStore } from '../ui/useExternalStore'

/** The lab panel, wired to the editor: file links open there, and unsaved edits are pointed out. */
export function LabSide({ lab, editor }: { lab: LabController; editor: EditorManager }) {
  const unsaved = useExternalStore(editor).documents.some((d) => d.dirty)
  const home = useExternalStore(lab).home
  const openFile = useCallback(
    (path: string) => void editor.open(home ? `${home}/${path}` : path),
    [editor, home],
  )
  return <LabPanel lab={lab} unsavedChanges={unsaved} onOpenFile={openFile} />
}
