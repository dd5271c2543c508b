import { useEffect } from 'react'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { pageNotices } from '../ui/notifications'
import type { Theme } from '../ui/themeStore'
import { useDisposable } from '../ui/useDisposable'
import { Workspace } from './Workspace'

/**
 * The workspace of a session, made after the first render and disposed with the component (or
 * when the session changes); undefined until then, the one place the workbench waits.
 */
export function useWorkspace(
  session: SandboxSession,
  theme: Theme,
  {
    lab,
    codeIntelligence,
    sourceControl = false,
    collaboration,
  }: {
    lab: boolean
    codeIntelligence: boolean
    sourceControl?: boolean
    collaboration?: { name: string; readOnly?: boolean }
  },
): Workspace | undefined {
  // The theme it starts with; later changes go through setTheme below, not a new workspace.
  const workspace = useDisposable(
    () =>
      new Workspace(session, {
        theme,
        notices: pageNotices,
        lab,
        codeIntelligence,
        sourceControl,
        collaboration,
      }),
    [session, lab, codeIntelligence, sourceControl, collaboration?.name, collaboration?.readOnly],
  )
  useEffect(() => workspace?.setTheme(theme), [workspace, theme])
  return workspace
}
