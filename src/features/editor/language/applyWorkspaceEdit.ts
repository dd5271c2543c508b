import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol'
import { pathOfUri } from '../../../sandbox/language/uris'
import type { EditorWorkspace } from './editorWorkspace'

/** A WorkspaceEdit's text edits by file path; undefined when it also creates, renames or deletes files. */
function editsByPath(edit: WorkspaceEdit): Map<string, TextEdit[]> | undefined {
  const byPath = new Map<string, TextEdit[]>()
  const add = (uri: string, edits: TextEdit[]) => {
    const path = pathOfUri(uri)
    if (path === undefined) return false
    byPath.set(path, [...(byPath.get(path) ?? []), ...edits])
    return true
  }
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) if (!add(uri, edits)) return undefined
  for (const change of edit.documentChanges ?? []) {
    if (!('textDocument' in change)) return undefined
    if (!add(change.textDocument.uri, change.edits as TextEdit[])) return undefined
  }
  return byPath
}

/** Offsets of each line's start in `text`, for LSP's line and character (UTF-16) positions. */
function lineStarts(text: string): number[] {
  const starts = [0]
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1)
  return starts
}

/** `text` with `edits` applied; all of them refer to `text` as it was, as LSP's do. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = lineStarts(text)
  const offset = ({ line, character }: { line: number; character: number }) =>
    line >= starts.length ? text.length : Math.min((starts[line] as number) + character, text.length)
  const ordered = edits
    .map((e) => ({ from: offset(e.range.start), to: offset(e.range.end), text: e.newText }))
    .sort((a, b) => b.from - a.from || b.to - a.to)
  let result = text
  for (const e of ordered) result = result.slice(0, e.from) + e.text + result.slice(e.to)
  return result
}

/**
 * Applies a server's WorkspaceEdit (a rename, a quick fix) across files: a file open in the editor
 * is edited in its buffer as one undoable step and becomes unsaved (File: Save All saves it); a
 * file that is not open is read, edited and written at once. Creating, renaming or deleting files
 * is refused (false), as is an edit to a file that cannot be read.
 */
export async function applyWorkspaceEdit(editor: EditorWorkspace, edit: WorkspaceEdit): Promise<boolean> {
  const byPath = editsByPath(edit)
  if (!byPath) return false
  const closed: [string, string][] = []
  for (const [path, edits] of byPath) {
    if (editor.bufferOf(path)) continue
    try {
      closed.push([path, applyTextEdits(new TextDecoder().decode(await editor.read(path)), edits)])
    } catch {
      return false
    }
  }
  for (const [path, edits] of byPath) {
    const model = editor.bufferOf(path)?.model
    if (!model) continue
    model.pushStackElement()
    model.pushEditOperations(
      [],
      edits.map((e) => ({
        range: {
          startLineNumber: e.range.start.line + 1,
          startColumn: e.range.start.character + 1,
          endLineNumber: e.range.end.line + 1,
          endColumn: e.range.end.character + 1,
        },
        text: e.newText,
      })),
      () => null,
    )
    model.pushStackElement()
  }
  const encoder = new TextEncoder()
  await Promise.all(closed.map(([path, text]) => editor.write(path, encoder.encode(text))))
  return true
}
