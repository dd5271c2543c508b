import type { Disposable } from '../common/lifecycle'
import type { EditorManager } from '../features/editor/EditorManager'
import { RecentFiles } from '../features/search/recentFiles'
import { type BufferEdit, type SearchEditor, SearchModel } from '../features/search/SearchModel'
import type { FileWatch } from '../sandbox/fileWatch'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { replaceInFiles, undoReplaceInFiles } from '../sandbox/search/replaceInFiles'
import type { TextEdit } from '../sandbox/search/replaceInText'
import { TextSearch } from '../sandbox/search/TextSearch'
import { WorkspaceFiles } from '../sandbox/search/WorkspaceFiles'

/** Find in Files and Go to File for one workspace: the view's model, the file list, the recent files. */
export interface SearchKit extends Disposable {
  model: SearchModel
  files: WorkspaceFiles
  recent: RecentFiles
}

/** What an edit to an open file left, to undo it. */
interface MadeEdit extends BufferEdit {
  /** The model's version right after the edit: an undo then takes exactly it back. */
  version: number
  before: string
  after: string
}

/**
 * The editor as the search uses it: open files' text and edits to it as one undoable step (the
 * file becomes unsaved, as a rename across files leaves it), refused where the editor would refuse
 * typing (a read-only file, a sandbox that is not running).
 */
function searchEditor(editor: EditorManager, isRunning: () => boolean): SearchEditor {
  return {
    bufferText: (path) => editor.bufferOf(path)?.getText(),
    editBuffer(path, edits: readonly TextEdit[]) {
      const buffer = editor.bufferOf(path)
      if (!buffer || editor.readOnlyReason(path) || !isRunning()) return undefined
      const model = buffer.model
      const before = model.getValue()
      model.pushStackElement()
      model.pushEditOperations(
        [],
        edits.map((e) => {
          const from = model.getPositionAt(e.from)
          const to = model.getPositionAt(e.to)
          return {
            range: {
              startLineNumber: from.lineNumber,
              startColumn: from.column,
              endLineNumber: to.lineNumber,
              endColumn: to.column,
            },
            text: e.text,
          }
        }),
        () => null,
      )
      model.pushStackElement()
      const made: MadeEdit = {
        path,
        version: model.getAlternativeVersionId(),
        before,
        after: model.getValue(),
      }
      return made
    },
    undoBufferEdit(edit) {
      const made = edit as MadeEdit
      const model = editor.bufferOf(made.path)?.model
      if (!model) return false
      if (model.getAlternativeVersionId() === made.version) {
        void model.undo()
        return true
      }
      if (model.getValue() !== made.after) return false
      model.pushStackElement()
      model.pushEditOperations([], [{ range: model.getFullModelRange(), text: made.before }], () => null)
      model.pushStackElement()
      return true
    },
    open: (path, at, focus) => void editor.open(path, { at, focus }),
  }
}

/** Makes the search of a workspace (its code is a chunk of its own, fetched when first wanted). */
export function startSearch(session: SandboxSession, watch: FileWatch, editor: EditorManager): SearchKit {
  const text = new TextSearch(session, {
    // Open files with unsaved changes are searched as the editor holds them.
    unsavedText: () =>
      new Map(
        editor
          .getSnapshot()
          .documents.filter((d) => d.dirty && d.buffer)
          .map((d) => [d.path, d.buffer?.getText() ?? ''] as const),
      ),
  })
  const model = new SearchModel(
    {
      search: (query, onResults) => text.search(query, onResults),
      folder: () => text.folder(),
      // A file the editor would not let the user change (a lab's, a read-only embed's) is not replaced either.
      replaceOnDisk: async (targets, fn) => {
        const refused = targets.flatMap((t) => {
          const reason = editor.readOnlyReason(t.path)
          return reason ? [{ path: t.path, reason }] : []
        })
        const allowed = targets.filter((t) => !editor.readOnlyReason(t.path))
        const outcome = await replaceInFiles(session.files, allowed, fn)
        return { ...outcome, skipped: [...refused, ...outcome.skipped] }
      },
      undoOnDisk: (replaced) => undoReplaceInFiles(session.files, replaced),
    },
    searchEditor(editor, () => session.getSnapshot().state.kind === 'running'),
  )
  const files = new WorkspaceFiles(session, watch)
  const recent = new RecentFiles()
  // Every file shown in the editor counts as opened: Go to File lists them first.
  const follow = () => {
    const snap = editor.getSnapshot()
    const active = snap.documents.find((d) => d.id === snap.activeId)
    if (active) recent.opened(active.path)
  }
  for (const doc of editor.getSnapshot().documents) recent.opened(doc.path)
  follow()
  const stop = editor.subscribe(follow)
  return {
    model,
    files,
    recent,
    dispose: () => {
      stop()
      model.dispose()
      text.dispose()
      files.dispose()
    },
  }
}
