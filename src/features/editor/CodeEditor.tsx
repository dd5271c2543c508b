import type * as Monaco from 'monaco-editor/editor/editor.api'
import { useEffect, useRef, useState } from 'react'
import type { Theme } from '../../ui/themeStore'
import type { Reveal } from './EditorManager'
import { loadMonaco } from './loadMonaco'
import type { TextBuffer } from './TextBuffer'

/** Editor options that reduced mode turns off, so a 5–50 MB file stays responsive. */
const reducedOptions: Monaco.editor.IEditorOptions = {
  minimap: { enabled: false },
  folding: false,
  wordWrap: 'off',
  occurrencesHighlight: 'off',
  selectionHighlight: false,
  renderValidationDecorations: 'off',
  stickyScroll: { enabled: false },
  links: false,
  colorDecorators: false,
}

const fullOptions: Monaco.editor.IEditorOptions = {
  minimap: { enabled: true },
  folding: true,
  occurrencesHighlight: 'singleFile',
  selectionHighlight: true,
  renderValidationDecorations: 'editable',
  links: true,
  colorDecorators: true,
}

/**
 * One Monaco editor for the whole area: each tab's buffer is swapped in as its model, with the
 * tab's cursor and scroll restored. Read-only while the sandbox is not running, with Monaco's own
 * "cannot edit" message saying why.
 */
export function CodeEditor({
  buffer,
  readOnlyReason,
  theme,
  focusRequest,
  takeFocus,
  reveal,
  hidden,
}: {
  buffer: TextBuffer | undefined
  /** Set while editing is not possible, e.g. "the sandbox is paused". */
  readOnlyReason: string | undefined
  theme: Theme
  focusRequest: number
  /** Whether a focus request is still to be honoured; true once per request. */
  takeFocus: () => boolean
  /** A place of this buffer to select and scroll to, once (a definition, a problem). */
  reveal?: Reveal | undefined
  hidden: boolean
}) {
  const host = useRef<HTMLDivElement>(null)
  const [editor, setEditor] = useState<Monaco.editor.IStandaloneCodeEditor>()
  const [cursor, setCursor] = useState({ line: 1, column: 1 })

  useEffect(() => {
    let live = true
    let created: Monaco.editor.IStandaloneCodeEditor | undefined
    void loadMonaco().then(({ monaco }) => {
      if (!live || !host.current) return
      created = monaco.editor.create(host.current, {
        model: null,
        automaticLayout: true,
        fontSize: 13,
        scrollBeyondLastLine: false,
        // Tab indents; Ctrl+M (Monaco's own toggle) makes Tab move the focus on, out of the editor.
        tabFocusMode: false,
        ariaLabel: 'File contents',
      })
      created.onDidChangeCursorPosition((e) =>
        setCursor({ line: e.position.lineNumber, column: e.position.column }),
      )
      setEditor(created)
    })
    return () => {
      live = false
      created?.dispose()
    }
  }, [])

  useEffect(() => {
    if (!editor || !buffer) return
    editor.setModel(buffer.model)
    editor.updateOptions(buffer.reduced ? reducedOptions : fullOptions)
    if (buffer.viewState) editor.restoreViewState(buffer.viewState)
    const position = editor.getPosition()
    if (position) setCursor({ line: position.lineNumber, column: position.column })
    // A shared file tells the others where this person's cursor is while it is shown.
    const detach = buffer.attachEditor(editor)
    return () => {
      detach()
      buffer.viewState = editor.saveViewState()
    }
  }, [editor, buffer])

  useEffect(() => {
    editor?.updateOptions({
      readOnly: !!readOnlyReason,
      readOnlyMessage: { value: readOnlyReason ?? '' },
    })
  }, [editor, readOnlyReason])

  useEffect(() => {
    if (!editor) return
    void loadMonaco().then(({ monaco }) => monaco.editor.setTheme(theme === 'dark' ? 'vs-dark' : 'vs'))
  }, [editor, theme])

  // biome-ignore lint/correctness/useExhaustiveDependencies: asks at each chance to take focus; takeFocus says whether to
  useEffect(() => {
    if (editor && buffer && !hidden && takeFocus()) editor.focus()
  }, [editor, buffer, hidden, focusRequest])

  // Once per request, once its buffer shows: `seq` tells a new request from one already shown.
  const revealed = useRef(0)
  useEffect(() => {
    if (
      !editor ||
      !buffer ||
      !reveal ||
      revealed.current === reveal.seq ||
      editor.getModel() !== buffer.model
    )
      return
    revealed.current = reveal.seq
    const { startLine, startColumn, endLine, endColumn } = reveal.range
    const range = { startLineNumber: startLine, startColumn, endLineNumber: endLine, endColumn }
    editor.setSelection(range)
    editor.revealRangeInCenterIfOutsideViewport(range)
  }, [editor, buffer, reveal])

  return (
    <div className="code-editor" hidden={hidden}>
      <div ref={host} className="code-editor-host" />
      <div className="editor-statusline" aria-live="off">
        <span data-testid="editor-cursor">
          Ln {cursor.line}, Col {cursor.column}
        </span>
        {buffer && <span>{buffer.languageId}</span>}
        {readOnlyReason && <span className="editor-readonly">Read-only</span>}
      </div>
    </div>
  )
}
