import { useMemo, useState } from 'react'
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels'
import { EditorArea } from '../features/editor/EditorArea'
import { useEditorManager } from '../features/editor/useEditorManager'
import { StatusBar } from '../features/statusbar/StatusBar'
import { TerminalPanel } from '../features/terminal/TerminalPanel'
import { useTerminalManager } from '../features/terminal/useTerminalManager'
import { SandboxToolbar } from '../features/toolbar/SandboxToolbar'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { addressKey } from '../sandbox/sandboxAddress'
import { useExternalStore } from '../ui/useExternalStore'
import { CommandPalette } from './CommandPalette'
import { workbenchCommands } from './commands'
import { useLayoutStore, usePanelVisibility } from './layoutStore'
import { navigate } from './route'
import { Sidebar } from './Sidebar'
import { type ThemeChoice, useThemeStore } from './themeStore'
import { useFileWatch } from './useFileWatch'
import { useGlobalShortcuts } from './useGlobalShortcuts'

/** Explorer | editor above a terminal panel, resizable and remembered per sandbox. */
export function Workbench({ session, theme }: { session: SandboxSession; theme: 'light' | 'dark' }) {
  const layoutKey = addressKey(session.address)
  const visibility = usePanelVisibility(layoutKey)
  const snap = useExternalStore(session)
  const [paletteOpen, setPaletteOpen] = useState(false)
  const themeChoice = useThemeStore((s) => s.choice)
  const setTheme = useThemeStore((s) => s.setChoice)
  const toggle = useLayoutStore((s) => s.toggle)
  const terminals = useTerminalManager(session, theme)
  const watch = useFileWatch(session)
  const editor = useEditorManager(session, watch)
  const columns = useDefaultLayout({
    id: `layout:${layoutKey}:columns`,
    panelIds: visibility.explorer ? ['explorer', 'main'] : ['main'],
  })
  const rows = useDefaultLayout({
    id: `layout:${layoutKey}:rows`,
    panelIds: visibility.terminal ? ['editor', 'terminal'] : ['editor'],
  })
  // biome-ignore lint/correctness/useExhaustiveDependencies: commands follow the session's state
  const commands = useMemo(
    () => workbenchCommands(session, layoutKey, terminals, () => setPaletteOpen(true), editor),
    [session, layoutKey, terminals, snap, editor],
  )
  const shortcuts = useMemo(
    () => [
      { key: 'p', ctrl: true, shift: true, run: () => setPaletteOpen((open) => !open) },
      { key: 'e', ctrl: true, shift: true, run: () => toggle(layoutKey, 'explorer') },
      { key: '`', ctrl: true, run: () => toggle(layoutKey, 'terminal') },
      { key: '~', ctrl: true, shift: true, run: () => terminals?.create() },
      { key: 'PageDown', ctrl: true, run: () => terminals?.cycle(1) },
      { key: 'PageUp', ctrl: true, run: () => terminals?.cycle(-1) },
    ],
    [layoutKey, toggle, terminals],
  )
  useGlobalShortcuts(shortcuts)

  return (
    <div className="workbench">
      <SandboxToolbar session={session}>
        <button type="button" onClick={() => navigate('/sandbox')}>
          Sandboxes
        </button>
        <button type="button" onClick={() => setPaletteOpen(true)} aria-keyshortcuts="Control+Shift+P">
          Commands
        </button>
        <label className="theme-switch">
          <span className="visually-hidden">Theme</span>
          <select
            value={themeChoice}
            onChange={(e) => setTheme(e.target.value as ThemeChoice)}
            aria-label="Theme"
          >
            <option value="system">System theme</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </SandboxToolbar>
      <Group orientation="horizontal" className="workbench-columns" {...columns}>
        {visibility.explorer && watch && (
          <>
            <Panel id="explorer" defaultSize="22%" minSize="10%">
              <Sidebar
                session={session}
                explorer={{
                  watch,
                  onOpenFile: (path) => void editor?.open(path),
                  onOpenTerminal: (cwd) => {
                    if (!visibility.terminal) toggle(layoutKey, 'terminal')
                    terminals?.create({ cwd })
                  },
                  onRenamed: (from, to) => editor?.renamed(from, to),
                  onRemoved: (path) => editor?.removed(path),
                }}
                layoutKey={layoutKey}
                onAttach={(pid, title) => {
                  // An attached terminal must be seen: open the terminal panel if it is hidden.
                  if (!visibility.terminal) toggle(layoutKey, 'terminal')
                  terminals?.attach(pid, title)
                }}
              />
            </Panel>
            <Separator className="separator" aria-label="Resize explorer" />
          </>
        )}
        <Panel id="main" minSize="30%">
          <Group orientation="vertical" {...rows}>
            <Panel id="editor" minSize="10%">
              <EditorArea session={session} watch={watch} manager={editor} theme={theme} />
            </Panel>
            {visibility.terminal && (
              <>
                <Separator className="separator" aria-label="Resize terminal" />
                <Panel id="terminal" defaultSize="45%" minSize="10%">
                  {terminals && <TerminalPanel session={session} manager={terminals} />}
                </Panel>
              </>
            )}
          </Group>
        </Panel>
      </Group>
      <StatusBar session={session} />
      <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} commands={commands} />
    </div>
  )
}
