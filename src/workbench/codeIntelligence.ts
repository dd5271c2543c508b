import { type Disposable, DisposableStore, toDisposable } from '../common/lifecycle'
import type { EditorManager } from '../features/editor/EditorManager'
import {
  editorWorkspace,
  linkEditorToLanguage,
  workspaceEditApplier,
} from '../features/editor/language/linkEditorToLanguage'
import type { LabController } from '../features/lab/LabController'
import type { FileWatch } from '../sandbox/fileWatch'
import { LanguageService } from '../sandbox/language/LanguageService'
import type { SandboxSession } from '../sandbox/SandboxSession'
import type { NoticeSink } from '../ui/notifications'
import { tabId } from '../ui/tabId'
import { linkLabToLanguage } from './linkLabToLanguage'

/**
 * Code intelligence for a workspace: the sandbox's language servers behind the editor, and a
 * lab's say over them (an exam turns them off, a lab may bring its own). Its code comes after the
 * page renders (servers start only when a file opens anyway).
 */
export function startCodeIntelligence(
  session: SandboxSession,
  watch: FileWatch,
  editor: EditorManager,
  notices: NoticeSink,
  lab: LabController | undefined,
): Disposable & { language: LanguageService } {
  const store = new DisposableStore()
  const workspace = editorWorkspace(editor, session.files)
  const language = store.add(
    new LanguageService(session, watch, {
      tabId: tabId(),
      applyEdit: workspaceEditApplier(workspace),
      message: (type, text) => notices.push(type === 'error' ? 'error' : 'info', text),
    }),
  )
  store.add(toDisposable(linkEditorToLanguage(editor, language, workspace)))
  if (lab) store.add(toDisposable(linkLabToLanguage(lab, language)))
  void language.loadWorkspaceFile()
  return { language, dispose: () => store.dispose() }
}
