import type { Disposable } from '../common/lifecycle'
import type { EditorManager } from '../features/editor/EditorManager'
import { linkEditorToGit } from '../features/editor/git/linkEditorToGit'
import type { FileWatch } from '../sandbox/fileWatch'
import { SourceControl } from '../sandbox/git/SourceControl'
import type { SandboxSession } from '../sandbox/SandboxSession'

/**
 * Source control for a workspace, fetched after the workbench renders (its own chunk): git's
 * status of the home folder, and the editor's gutter marking lines that differ from HEAD.
 */
export function startSourceControl(
  session: SandboxSession,
  watch: FileWatch,
  editor: EditorManager,
): Disposable & { scm: SourceControl } {
  const scm = new SourceControl(session, watch)
  const unlink = linkEditorToGit(editor, scm)
  return {
    scm,
    dispose: () => {
      unlink()
      scm.dispose()
    },
  }
}
