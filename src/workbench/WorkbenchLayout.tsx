import { type ReactNode, Suspense, useEffect } from 'react'
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels'
import { TerminalPanel } from '../features/terminal/TerminalPanel'
import { browserStorage } from '../ui/browserStorage'
import type { FocusRequest } from '../ui/FocusRequest'
import { lazyNamed } from '../ui/lazyNamed'
import type { Theme } from '../ui/themeStore'
import { useExternalStore } from '../ui/useExternalStore'
import { narrowScreen, useMediaQuery } from '../ui/useMediaQuery'
import type { Workspace } from './Workspace'

// Each panel's code is its own chunk, fetched as soon as the layout knows it shows the panel (in
// parallel with the session's start): a terminal-only embed never fetches the explorer or editor.
const loadSidebar = () => import('./Sidebar')
const loadEditorArea = () => import('../features/editor/EditorArea')
const Sidebar = lazyNamed(loadSidebar, 'Sidebar')
const EditorArea = lazyNamed(loadEditorArea, 'EditorArea')
const PreviewPane = lazyNamed(() => import('../features/preview/PreviewPane'), 'PreviewPane')

/** Starts fetching the code of the panels `visibility` shows, before the layout first renders. */
export function usePanelCode(visibility: Pick<PanelVisibility, 'explorer' | 'editor'>): void {
  useEffect(() => {
    if (visibility.explorer) void loadSidebar()
    if (visibility.editor) void loadEditorArea()
  }, [visibility.explorer, visibility.editor])
}

/** Which of the workbench's panels are shown. */
export interface PanelVisibility {
  explorer: boolean
  editor: boolean
  terminal: boolean
  /** The preview, while it shows a port (an embed may hide it). */
  preview: boolean
}

interface WorkbenchLayoutProps {
  workspace: Workspace
  theme: Theme
  visibility: PanelVisibility
  /** Remembers panel sizes under this key. */
  layoutKey: string
  /** Makes the terminal panel visible (an action opened a terminal while it was hidden). */
  showTerminal(): void
  /** No file is changed through the explorer. */
  readOnly?: boolean
  /** A panel right of the editor (the lab's), when there is one. */
  side?: ReactNode
  /** Asks the Problems panel for the keyboard (Ctrl+Shift+M). */
  problemsFocus?: FocusRequest
  /** Asks the Source Control view to commit (the palette); without, no view. Its shortcut asks it for the keyboard as any view's does. */
  scmRequests?: { commit: FocusRequest }
}

/**
 * Explorer | editor above a terminal panel, resizable, sizes remembered per `layoutKey`; on a
 * narrow screen the columns are stacked top to bottom instead of squeezed side by side.
 */
export function WorkbenchLayout({
  workspace,
  theme,
  visibility,
  layoutKey,
  showTerminal,
  readOnly = false,
  side,
  problemsFocus,
  scmRequests,
}: WorkbenchLayoutProps) {
  const { session, terminals, watch, editor, preview, ports, sourceControl } = workspace
  const language = useExternalStore(workspace.language)
  const people = useExternalStore(workspace.people)
  const previewed = useExternalStore(preview) !== undefined && visibility.preview
  // A phone held upright: the columns are stacked, each as wide as the screen (own sizes kept).
  const stacked = useMediaQuery(narrowScreen)
  const columns = useDefaultLayout({
    id: `layout:${layoutKey}:${stacked ? 'stacked' : 'columns'}`,
    panelIds: [
      ...(visibility.explorer ? ['explorer'] : []),
      'main',
      ...(previewed ? ['preview'] : []),
      ...(side ? ['side'] : []),
    ],
    storage: browserStorage,
  })
  const rowIds = [visibility.editor && 'editor', visibility.terminal && 'terminal'].filter(
    (id): id is string => !!id,
  )
  const rows = useDefaultLayout({ id: `layout:${layoutKey}:rows`, panelIds: rowIds, storage: browserStorage })
  return (
    <Group orientation={stacked ? 'vertical' : 'horizontal'} className="workbench-columns" {...columns}>
      {visibility.explorer && (
        <>
          <Panel id="explorer" defaultSize="22%" minSize="10%">
            <Suspense fallback={null}>
              <Sidebar
                workspace={workspace}
                session={session}
                explorer={{
                  watch,
                  onOpenFile: (path, options) => void editor.open(path, options),
                  onOpenTerminal: (cwd) => {
                    showTerminal()
                    terminals.create({ cwd })
                  },
                  onRenamed: (from, to) => editor.renamed(from, to),
                  onRemoved: (path) => editor.removed(path),
                  readOnlyReason: (path) => editor.readOnlyReason(path),
                  readOnly,
                }}
                layoutKey={layoutKey}
                onAttach={(pid, title) => {
                  // An attached terminal must be seen.
                  showTerminal()
                  terminals.attach(pid, title)
                }}
                ports={ports}
                onPreview={(port) => preview.open(port)}
                problems={
                  language && {
                    language,
                    watch,
                    onOpen: (path, at) => void editor.open(path, at ? { at } : {}),
                    focus: problemsFocus,
                  }
                }
                sourceControl={
                  scmRequests && {
                    store: sourceControl,
                    ...scmRequests,
                    onOpenDiff: (path, against) => void editor.compareWith(path, against),
                    onOpenFile: (path) => void editor.open(path),
                  }
                }
              />
            </Suspense>
          </Panel>
          <Separator className="separator" aria-label="Resize explorer" />
        </>
      )}
      <Panel id="main" minSize="30%">
        <Group orientation="vertical" {...rows}>
          {visibility.editor && (
            <Panel id="editor" minSize="10%">
              <Suspense fallback={null}>
                <EditorArea
                  session={session}
                  watch={watch}
                  manager={editor}
                  theme={theme}
                  sourceControl={sourceControl}
                />
              </Suspense>
            </Panel>
          )}
          {visibility.editor && visibility.terminal && (
            <Separator className="separator" aria-label="Resize terminal" />
          )}
          {visibility.terminal && (
            <Panel id="terminal" defaultSize={visibility.editor ? '45%' : '100%'} minSize="10%">
              <TerminalPanel session={session} manager={terminals} presence={people?.presence} />
            </Panel>
          )}
        </Group>
      </Panel>
      {previewed && (
        <>
          <Separator className="separator" aria-label="Resize preview" />
          <Panel id="preview" defaultSize="35%" minSize="15%">
            <Suspense fallback={null}>
              <PreviewPane session={session} model={preview} watch={ports} />
            </Suspense>
          </Panel>
        </>
      )}
      {side && (
        <>
          <Separator className="separator" aria-label="Resize lab" />
          <Panel id="side" defaultSize="28%" minSize="15%">
            {side}
          </Panel>
        </>
      )}
    </Group>
  )
}
