import type { TerminalManager } from '../features/terminal/TerminalManager'
import { sandboxActions } from '../features/toolbar/sandboxActions'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { useLayoutStore } from './layoutStore'
import { navigate } from './route'
import { type ThemeChoice, useThemeStore } from './themeStore'

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
  terminals: TerminalManager | undefined,
  openPalette?: () => void,
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
      enabled: !!terminals,
      run: () => terminals?.create(),
    },
    {
      id: 'terminal.split',
      title: 'Terminal: Split terminal',
      enabled: !!terminals,
      run: () => terminals?.create({ split: true }),
    },
    {
      id: 'terminal.close',
      title: 'Terminal: Close terminal',
      enabled: !!terminals?.active,
      run: () => {
        const active = terminals?.active
        if (active) terminals?.close(active.record.id)
      },
    },
    {
      id: 'terminal.next',
      title: 'Terminal: Next tab',
      shortcut: 'Ctrl+PageDown',
      enabled: !!terminals,
      run: () => terminals?.cycle(1),
    },
    {
      id: 'terminal.previous',
      title: 'Terminal: Previous tab',
      shortcut: 'Ctrl+PageUp',
      enabled: !!terminals,
      run: () => terminals?.cycle(-1),
    },
    {
      id: 'terminal.focus',
      title: 'Terminal: Focus the terminal',
      enabled: !!terminals?.active,
      run: () => terminals?.active?.focus(),
    },
    { id: 'theme.system', title: 'Theme: Follow the system', enabled: true, run: setTheme('system') },
    { id: 'theme.light', title: 'Theme: Light', enabled: true, run: setTheme('light') },
    { id: 'theme.dark', title: 'Theme: Dark', enabled: true, run: setTheme('dark') },
  ]
  if (openPalette) {
    commands.push({
      id: 'palette.open',
      title: 'Show all commands',
      shortcut: 'Ctrl+Shift+P',
      enabled: true,
      run: openPalette,
    })
  }
  return commands
}
