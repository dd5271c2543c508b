import { useEditorManager } from '../features/editor/useEditorManager'
import { useTerminalManager } from '../features/terminal/useTerminalManager'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { useFileWatch } from './useFileWatch'
import type { WorkbenchParts } from './WorkbenchLayout'

/** The terminals, file watch and open files of a session, alive as long as the workbench is. */
export function useWorkbenchParts(session: SandboxSession, theme: 'light' | 'dark'): WorkbenchParts {
  const terminals = useTerminalManager(session, theme)
  const watch = useFileWatch(session)
  const editor = useEditorManager(session, watch)
  return { terminals, watch, editor }
}
