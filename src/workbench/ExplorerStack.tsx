import { Suspense } from 'react'
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels'
import { ExplorerPanel } from '../features/files/ExplorerPanel'
import { PortsPanel } from '../features/ports/PortsPanel'
import { useOpenByOthers } from '../features/presence/useOpenByOthers'
import { ProcessPanel } from '../features/processes/ProcessPanel'
import { browserStorage } from '../ui/browserStorage'
import { lazyNamed } from '../ui/lazyNamed'
import { useExternalStore } from '../ui/useExternalStore'
import type { SideViewProps } from './sideViews'

/**
 * Each panel scrolls its own list and keeps its header in view; the library's wrapper would
 * otherwise scroll the whole panel once it is squeezed (on a phone), a scrolling region with
 * nothing to focus in it for keyboard users.
 */
const ownScrolling = { overflow: 'hidden' } as const
// Only a workspace with language servers has problems: their panel's code comes when it shows.
const ProblemsPanel = lazyNamed(() => import('../features/problems/ProblemsPanel'), 'ProblemsPanel')
const nothing = { subscribe: () => () => {}, getSnapshot: () => undefined }

/** The Explorer view: the files above the process list, the ports and the problems, resizable. */
export function ExplorerStack({
  session,
  explorer,
  layoutKey,
  onAttach,
  ports,
  onPreview,
  problems,
  sourceControl,
  workspace,
}: SideViewProps) {
  const rows = useDefaultLayout({
    id: `layout:${layoutKey}:sidebar`,
    panelIds: ['files', 'processes', 'ports', ...(problems ? ['problems'] : [])],
    storage: browserStorage,
  })
  // Source control colours the files it sees changed.
  const scm = useExternalStore(sourceControl?.store ?? nothing)
  const changes = useExternalStore(scm ?? nothing)?.decorations
  // Co-editing marks the files others have open.
  const openBy = useOpenByOthers(useExternalStore(workspace.people)?.presence)
  return (
    <Group orientation="vertical" {...rows}>
      <Panel id="files" minSize="15%" style={ownScrolling}>
        <ExplorerPanel session={session} {...explorer} changes={changes} openBy={openBy} />
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
            <Suspense fallback={null}>
              <ProblemsPanel {...problems} />
            </Suspense>
          </Panel>
        </>
      )}
    </Group>
  )
}
