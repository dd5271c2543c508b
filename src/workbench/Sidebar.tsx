import type { ComponentProps } from 'react'
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels'
import { ExplorerPanel, type ExplorerProps } from '../features/files/ExplorerPanel'
import { PortsPanel } from '../features/ports/PortsPanel'
import { ProblemsPanel } from '../features/problems/ProblemsPanel'
import { ProcessPanel } from '../features/processes/ProcessPanel'
import type { PortWatch } from '../sandbox/portWatch'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { browserStorage } from '../ui/browserStorage'

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
}

/** The left column: the explorer above the process list, the ports and the problems, resizable. */
export function Sidebar({
  session,
  explorer,
  layoutKey,
  onAttach,
  ports,
  onPreview,
  problems,
}: SidebarProps) {
  const rows = useDefaultLayout({
    id: `layout:${layoutKey}:sidebar`,
    panelIds: ['files', 'processes', 'ports', ...(problems ? ['problems'] : [])],
    storage: browserStorage,
  })
  return (
    <Group orientation="vertical" {...rows}>
      <Panel id="files" minSize="15%" style={ownScrolling}>
        <ExplorerPanel session={session} {...explorer} />
      </Panel>
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
