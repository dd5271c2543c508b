import type * as Monaco from 'monaco-editor/editor/editor.api'
import { useEffect, useRef } from 'react'
import { loadMonaco } from './loadMonaco'
import type { TextBuffer } from './TextBuffer'

/** What each side is called, left and right. */
const diskLabels = ['Disk version (read-only)', 'Your version (unsaved)'] as const

/**
 * Compare: another version's text (left, read-only: the disk's, or git's index or HEAD) next to
 * the user's buffer (right, still editable and still the same buffer, so edits made here are the
 * ones kept or saved).
 */
export function DiffView({
  buffer,
  original,
  readOnly,
  labels = diskLabels,
  onClose,
}: {
  buffer: TextBuffer
  original: string
  readOnly: boolean
  labels?: readonly [string, string]
  /** Shows the file alone again; a button says so where given. */
  onClose?: () => void
}) {
  const host = useRef<HTMLDivElement>(null)
  const diff = useRef<Monaco.editor.IStandaloneDiffEditor>(undefined)
  const readOnlyNow = useRef(readOnly)
  readOnlyNow.current = readOnly
  // Read when the diff editor is made: new labels (a new array each render) do not make it again.
  const labelsNow = useRef(labels)
  labelsNow.current = labels

  useEffect(() => {
    let live = true
    let created: Monaco.editor.IStandaloneDiffEditor | undefined
    let left: Monaco.editor.ITextModel | undefined
    void loadMonaco().then(({ monaco }) => {
      if (!live || !host.current) return
      left = monaco.editor.createModel(original, buffer.languageId)
      created = monaco.editor.createDiffEditor(host.current, {
        automaticLayout: true,
        originalEditable: false,
        renderSideBySide: true,
        // Keep side by side even in a narrow panel: which side is which must stay obvious.
        useInlineViewWhenSpaceIsLimited: false,
        ariaLabel: `${labelsNow.current[0]} and ${labelsNow.current[1]}`,
      })
      created.setModel({ original: left, modified: buffer.model })
      created.getModifiedEditor().updateOptions({ readOnly: readOnlyNow.current })
      diff.current = created
    })
    return () => {
      live = false
      diff.current = undefined
      created?.dispose()
      left?.dispose()
    }
  }, [buffer, original])

  useEffect(() => {
    diff.current?.getModifiedEditor().updateOptions({ readOnly })
  }, [readOnly])

  return (
    <div className="diff-view">
      <div className="diff-labels">
        <span>{labels[0]}</span>
        <span>
          {labels[1]}
          {onClose && (
            <button type="button" className="diff-close" onClick={onClose}>
              Close comparison
            </button>
          )}
        </span>
      </div>
      <div ref={host} className="code-editor-host" data-testid="diff-editor" />
    </div>
  )
}
