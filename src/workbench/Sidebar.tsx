import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels'
import { ExplorerPanel, type ExplorerProps } from '../features/files/ExplorerPanel'
import { ProcessPanel } from '../features/processes/ProcessPanel'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { browserStorage } from '../ui/browserStorage'

interface SidebarProps {
  session: SandboxSession
  /** What the explorer needs besides the session. */
  explorer: Omit<ExplorerProps, 'session'>
  /** Remembers the split per sandbox, as the workbench's other groups do. */
  layoutKey: string
  onAttach(pid: number, title: string): void
}

/** The left column: the explorer above the process list, resizable. */
export function Sidebar({ session, explorer, layoutKey, onAttach }: SidebarProps) {
  const rows = useDefaultLayout({
    id: `layout:${layoutKey}:sidebar`,
    panelIds: ['files', 'processes'],
    storage: browserStorage,
  })
  return (
    <Group orientation="vertical" {...rows}>
      <Panel id="files" minSize="15%">
        <ExplorerPanel session={session} {...explorer} />
      </Panel>
      <Separator className="separator" aria-label="Resize processes" />
      <Panel id="processes" defaultSize="35%" minSize="10%">
        <ProcessPanel session={session} onAttach={onAttach} />
      </Panel>
    </Group>
  )
}
