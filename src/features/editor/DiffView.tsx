import type * as Monaco from 'monaco-editor/editor/editor.api'
import { useEffect, useRef } from 'react'
import { loadMonaco } from './loadMonaco'
import type { TextBuffer } from './TextBuffer'

/**
 * Compare: the disk's text (left, read-only) next to the user's buffer (right, still editable and
 * still the same buffer, so edits made here are the ones kept or saved).
 */
export function DiffView({
  buffer,
  diskText,
  readOnly,
}: {
  buffer: TextBuffer
  diskText: string
  readOnly: boolean
}) {
  const host = useRef<HTMLDivElement>(null)
  const diff = useRef<Monaco.editor.IStandaloneDiffEditor>(undefined)
  const readOnlyNow = useRef(readOnly)
  readOnlyNow.current = readOnly

  useEffect(() => {
    let live = true
    let created: Monaco.editor.IStandaloneDiffEditor | undefined
    let original: Monaco.editor.ITextModel | undefined
    void loadMonaco().then(({ monaco }) => {
      if (!live || !host.current) return
      original = monaco.editor.createModel(diskText, buffer.languageId)
      created = monaco.editor.createDiffEditor(host.current, {
        automaticLayout: true,
        originalEditable: false,
        renderSideBySide: true,
        // Keep side by side even in a narrow panel: which side is which must stay obvious.
        useInlineViewWhenSpaceIsLimited: false,
        ariaLabel: 'Disk version and your version',
      })
      created.setModel({ original, modified: buffer.model })
      created.getModifiedEditor().updateOptions({ readOnly: readOnlyNow.current })
      diff.current = created
    })
    return () => {
      live = false
      diff.current = undefined
      created?.dispose()
      original?.dispose()
    }
  }, [buffer, diskText])

  useEffect(() => {
    diff.current?.getModifiedEditor().updateOptions({ readOnly })
  }, [readOnly])

  return (
    <div className="diff-view">
      <div className="diff-labels">
        <span>Disk version (read-only)</span>
        <span>Your version (unsaved)</span>
      </div>
      <div ref={host} className="code-editor-host" data-testid="diff-editor" />
    </div>
  )
}
