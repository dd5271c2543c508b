import type { EditorManager } from '../features/editor/EditorManager'
import type { TerminalManager } from '../features/terminal/TerminalManager'
import { scrollbackChoices, useTerminalSettings } from '../features/terminal/terminalSettings'
import { sandboxActions } from '../features/toolbar/sandboxActions'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { reportErrors } from '../ui/notifications'
import { type ThemeChoice, useThemeStore } from '../ui/themeStore'
import { useLayoutStore } from './layoutStore'
import { navigate } from './route'

const predictiveEchoTitles = {
  off: 'off',
  auto: 'on a slow link (auto: a sandbox across a network, echo above 30 ms)',
  always: 'always',
} as const

/** One action of the command palette. */
export interface Command {
  id: string
  title: string
  /** As shown next to the title, e.g. "Ctrl+`". */
  shortcut?: string
  enabled: boolean
  run(): void
}

/** Every workbench action, for the palette: each one also has a button or a shortcut. */
export function workbenchCommands(
  session: SandboxSession,
  layoutKey: string,
  terminals: TerminalManager,
  openPalette: () => void,
  editor: EditorManager,
): Command[] {
  const snap = session.getSnapshot()
  const actions = sandboxActions(session)
  const state = snap.state.kind
  const toggle = useLayoutStore.getState().toggle
  const setTheme = (choice: ThemeChoice) => () => useThemeStore.getState().setChoice(choice)
  const commands: Command[] = [
    {
      id: 'sandbox.pause',
      title: 'Sandbox: Pause',
      enabled: snap.hasPlatform && state === 'running',
      run: actions.pause,
    },
    {
      id: 'sandbox.resume',
      title: 'Sandbox: Resume',
      enabled: snap.hasPlatform && state === 'paused',
      run: actions.resume,
    },
    {
      id: 'sandbox.extend',
      title: 'Sandbox: Extend timeout by 30 minutes',
      enabled: snap.hasPlatform,
      run: actions.extend,
    },
    {
      id: 'sandbox.retry',
      title: 'Sandbox: Retry connection now',
      enabled: state === 'reconnecting',
      run: actions.retryNow,
    },
    {
      id: 'sandbox.copyId',
      title: 'Sandbox: Copy sandbox id',
      enabled: !!snap.sandboxId,
      run: actions.copyId,
    },
    {
      id: 'sandbox.switch',
      title: 'Sandbox: Switch sandbox…',
      enabled: true,
      run: () => navigate('/sandbox'),
    },
    {
      id: 'view.explorer',
      title: 'View: Toggle explorer',
      shortcut: 'Ctrl+Shift+E',
      enabled: true,
      run: () => toggle(layoutKey, 'explorer'),
    },
    {
      id: 'view.terminal',
      title: 'View: Toggle terminal',
      shortcut: 'Ctrl+`',
      enabled: true,
      run: () => toggle(layoutKey, 'terminal'),
    },
    {
      id: 'terminal.new',
      title: 'Terminal: New terminal',
      shortcut: 'Ctrl+Shift+`',
      enabled: true,
      run: () => terminals.create(),
    },
    {
      id: 'terminal.split',
      title: 'Terminal: Split terminal',
      enabled: true,
      run: () => terminals.create({ split: true }),
    },
    {
      id: 'terminal.close',
      title: 'Terminal: Close terminal',
      enabled: !!terminals.active,
      run: () => {
        const active = terminals.active
        if (active) terminals.close(active.record.id)
      },
    },
    {
      id: 'terminal.next',
      title: 'Terminal: Next tab',
      shortcut: 'Ctrl+PageDown',
      enabled: true,
      run: () => terminals.cycle(1),
    },
    {
      id: 'terminal.previous',
      title: 'Terminal: Previous tab',
      shortcut: 'Ctrl+PageUp',
      enabled: true,
      run: () => terminals.cycle(-1),
    },
    {
      id: 'terminal.focus',
      title: 'Terminal: Focus the terminal',
      enabled: !!terminals.active,
      run: () => terminals.active?.focus(),
    },
    {
      id: 'terminal.find',
      title: 'Terminal: Find',
      shortcut: 'Ctrl+Shift+F',
      enabled: !!terminals.active,
      run: () => terminals.active?.openFind(),
    },
    {
      id: 'terminal.copyOnSelect',
      title: 'Terminal: Toggle copy on selection',
      enabled: true,
      run: () => useTerminalSettings.getState().toggleCopyOnSelect(),
    },
    {
      id: 'terminal.screenReader',
      title: 'Terminal: Toggle screen reader mode',
      enabled: true,
      run: () => useTerminalSettings.getState().toggleScreenReaderMode(),
    },
    {
      id: 'terminal.localLinks',
      title: 'Terminal: Toggle opening localhost links in the preview (or a new tab)',
      enabled: true,
      run: () => useTerminalSettings.getState().toggleLocalLinksOpen(),
    },
    ...(['off', 'auto', 'always'] as const).map((mode) => ({
      id: `terminal.predictiveEcho.${mode}`,
      title: `Terminal: Predictive echo ${predictiveEchoTitles[mode]}`,
      enabled: true,
      run: () => useTerminalSettings.getState().setPredictiveEcho(mode),
    })),
    ...scrollbackChoices.map((lines) => ({
      id: `terminal.scrollback.${lines}`,
      title: `Terminal: Keep ${lines.toLocaleString('en')} lines of scrollback${lines === scrollbackChoices[0] ? ' (the default, fastest)' : ''}`,
      enabled: true,
      run: () => useTerminalSettings.getState().setScrollback(lines),
    })),
    {
      id: 'view.fullscreen',
      title: 'View: Toggle full screen (the terminal gets Ctrl+W, Ctrl+N, Ctrl+T)',
      enabled: true,
      // Only fullscreen entered by the page lets it lock those keys away from the browser.
      run: () =>
        void reportErrors('Full screen failed', () =>
          document.fullscreenElement
            ? document.exitFullscreen()
            : document.documentElement.requestFullscreen(),
        ),
    },
    {
      id: 'file.open',
      title: 'File: Open…',
      enabled: state === 'running',
      run: () => editor.setQuickOpen(true),
    },
    {
      id: 'file.save',
      title: 'File: Save',
      shortcut: 'Ctrl+S',
      enabled: state === 'running',
      run: () => void editor.save(),
    },
    {
      id: 'file.saveAll',
      title: 'File: Save All',
      shortcut: 'Ctrl+Alt+S',
      enabled: state === 'running',
      run: () => void editor.saveAll(),
    },
    {
      id: 'file.close',
      title: 'File: Close editor',
      enabled: true,
      run: () => editor.requestClose(),
    },
    {
      id: 'file.next',
      title: 'File: Next editor',
      enabled: true,
      run: () => editor.cycle(1),
    },
    {
      id: 'file.previous',
      title: 'File: Previous editor',
      enabled: true,
      run: () => editor.cycle(-1),
    },
    { id: 'theme.system', title: 'Theme: Follow the system', enabled: true, run: setTheme('system') },
    { id: 'theme.light', title: 'Theme: Light', enabled: true, run: setTheme('light') },
    { id: 'theme.dark', title: 'Theme: Dark', enabled: true, run: setTheme('dark') },
  ]
  commands.push({
    id: 'palette.open',
    title: 'Show all commands',
    shortcut: 'Ctrl+Shift+P',
    enabled: true,
    run: openPalette,
  })
  return commands
}
