import type { ComponentProps } from 'react'
import type { ExplorerProps } from '../features/files/ExplorerPanel'
import type { ProblemsPanel } from '../features/problems/ProblemsPanel'
import type { SourceControlViewProps } from '../features/scm/SourceControlView'
import type { SourceControl } from '../sandbox/git/SourceControl'
import type { PortWatch } from '../sandbox/portWatch'
import type { SandboxSession } from '../sandbox/SandboxSession'
import type { ExternalStore } from '../ui/useExternalStore'
import type { Workspace } from './Workspace'

/** The Source Control view's part of the sidebar: its model, once loaded, and what the view calls. */
export interface SidebarSourceControl extends Omit<SourceControlViewProps, 'scm'> {
  store: ExternalStore<SourceControl | undefined>
}

/** What the sidebar's views are made from: the workspace, and what the layout hands each panel. */
export interface SidebarProps {
  workspace: Workspace
  session: SandboxSession
  /** What the explorer needs besides the session. */
  explorer: Omit<ExplorerProps, 'session'>
  /** Remembers the split per sandbox, as the workbench's other groups do. */
  layoutKey: string
  onAttach(pid: number, title: string): void
  /** The sandbox's listening ports. */
  ports: PortWatch
  /** Shows one of the sandbox's ports in the preview pane. */
  onPreview(port: number): void
  /** The Problems panel, where code intelligence is on. */
  problems?: ComponentProps<typeof ProblemsPanel> | undefined
  /** The Source Control view, where source control is on; the explorer colours changed files then. */
  sourceControl?: SidebarSourceControl | undefined
}
