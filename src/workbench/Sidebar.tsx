import { type ComponentProps, Suspense } from 'react'
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels'
import { ExplorerPanel, type ExplorerProps } from '../features/files/ExplorerPanel'
import { PortsPanel } from '../features/ports/PortsPanel'
import { ProblemsPanel } from '../features/problems/ProblemsPanel'
import { ProcessPanel } from '../features/processes/ProcessPanel'
import type { SourceControlViewProps } from '../features/scm/SourceControlView'
import type { SourceControl } from '../sandbox/git/SourceControl'
import type { PortWatch } from '../sandbox/portWatch'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { browserStorage } from '../ui/browserStorage'
import { lazyNamed } from '../ui/lazyNamed'
import { type ExternalStore, useExternalStore } from '../ui/useExternalStore'

// Fetched when the view first shows, apart from the explorer.
const SourceControlView = lazyNamed(() => import('../features/scm/SourceControlView'), 'SourceControlView')
const nothing = { subscribe: () => () => {}, getSnapshot: () => undefined }

/** The Source Control view's part of the sidebar: its model, once loaded, and what the view calls. */
export interface SidebarSourceControl extends Omit<SourceControlViewProps, 'scm'> {
  store: ExternalStore<SourceControl | undefined>
}

/**
 * Each panel scrolls its own list and keeps its header in view; the library's wrapper would
 * otherwise scroll the whole panel once it is squeezed (on a phone), a scrolling region with
 * nothing to focus in it for keyboard users.
 */
const ownScrolling = { overflow: 'hidden' } as const

interface SidebarProps {
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

/** The left column: the explorer above source control, the process list, the ports and the problems, resizable. */
export function Sidebar({
  session,
  explorer,
  layoutKey,
  onAttach,
  ports,
  onPreview,
  problems,
  sourceControl,
}: SidebarProps) {
  const rows = useDefaultLayout({
    id: `layout:${layoutKey}:sidebar`,
    panelIds: [
      'files',
      ...(sourceControl ? ['scm'] : []),
      'processes',
      'ports',
      ...(problems ? ['problems'] : []),
    ],
    storage: browserStorage,
  })
  const scm = useExternalStore(sourceControl?.store ?? nothing)
  const changes = useExternalStore(scm ?? nothing)?.decorations
  return (
    <Group orientation="vertical" {...rows}>
      <Panel id="files" minSize="15%" style={ownScrolling}>
        <ExplorerPanel session={session} {...explorer} changes={changes} />
      </Panel>
      {sourceControl && (
        <>
          <Separator className="separator" aria-label="Resize source control" />
          <Panel id="scm" defaultSize="30%" minSize="10%" style={ownScrolling}>
            {scm ? (
              <Suspense fallback={null}>
                <SourceControlView scm={scm} {...sourceControl} />
              </Suspense>
            ) : (
              <section className="panel" aria-label="Source Control">
                <p className="panel-message">Loading source control…</p>
              </section>
            )}
          </Panel>
        </>
      )}
      <Separator className="separator" aria-label="Resize processes" />
      <Panel id="processes" defaultSize="25%" minSize="10%" style={ownScrolling}>
        <ProcessPanel session={session} onAttach={onAttach} />
      </Panel>
      <Separator className="separator" aria-label="Resize ports" />
      <Panel id="ports" defaultSize="20%" minSize="8%" style={ownScrolling}>
        <PortsPanel session={session} watch={ports} onPreview={onPreview} />
      </Panel>
      {problems && (
        <>
          <Separator className="separator" aria-label="Resize problems" />
          <Panel id="problems" defaultSize="20%" minSize="8%" style={ownScrolling}>
            <ProblemsPanel {...problems} />
          </Panel>
        </>
      )}
    </Group>
  )
}
