import type { PanelName, ThemeName } from '@sandbox-ide/embed/protocol'
import type { TerminalInstance } from '../features/terminal/TerminalInstance'
import { sandboxError } from '../sandbox/sandboxError'
import type { SandboxFiles } from '../sandbox/sandboxFiles'
import type { Workspace } from '../workbench/Workspace'
import type { ConsentQueue } from './consent'
import { CommandError, type CommandHandlers } from './embedHost'

/** What the commands act on: the embedded workbench's workspace and the page around it. */
export interface EmbedTarget {
  workspace: Workspace
  consent: ConsentQueue
  /** Commands from this parent run without asking. */
  trusted: boolean
  /** Who asks, as the consent dialog names them. */
  requester: string
  readOnly: boolean
  showPanels(update: (current: PanelName[]) => PanelName[]): void
  setTheme(theme: ThemeName): void
}

const decoder = new TextDecoder()
const encoder = new TextEncoder()

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new CommandError('failed', `${what} is not ready yet: wait for 'ready'`)
  return value
}

/** An update of the shown panels that adds `panel` if it is missing. */
export const including = (panel: PanelName) => (current: PanelName[]) =>
  current.includes(panel) ? current : [...current, panel]

/** Resolves with the terminal's pid once its process started; rejects if it could not start. */
function started(terminal: TerminalInstance): Promise<number> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const { status } = terminal.getSnapshot()
      if (status.kind === 'attached' || (status.kind === 'exited' && status.pid !== undefined)) {
        stop()
        resolve(status.kind === 'attached' ? status.pid : (status.pid as number))
      } else if (status.kind === 'failed') {
        stop()
        reject(new CommandError('failed', `the command did not start: ${status.reason}`))
      }
    }
    const stop = terminal.subscribe(check)
    check()
  })
}

/** Runs a command in a new terminal, after asking the user unless the parent is trusted. */
export async function runInTerminal(target: EmbedTarget, command: string, cwd?: string): Promise<number> {
  const agreed = target.trusted || (await target.consent.ask({ command, requester: target.requester }))
  if (!agreed) throw new CommandError('declined', 'the user chose not to run the command')
  target.showPanels(including('terminal'))
  return started(target.workspace.terminals.create({ command, ...(cwd ? { cwd } : {}) }))
}

/** The commands a parent page may send, acting on the embedded workbench. */
export function embedCommands(target: EmbedTarget): CommandHandlers {
  const withFiles = async <T>(call: (files: SandboxFiles) => Promise<T>): Promise<T> => {
    try {
      return await call(target.workspace.session.files)
    } catch (err) {
      if (sandboxError(err).kind === 'not-connected') need(undefined, 'the sandbox')
      throw err
    }
  }
  return {
    openFile: async ({ path }) => {
      const { editor } = target.workspace
      target.showPanels(including('editor'))
      await editor.open(path)
      // The file opened is the active tab (its path is absolute by now).
      const { documents, activeId } = editor.getSnapshot()
      const doc = documents.find((d) => d.id === activeId)
      if (doc?.error) throw new CommandError('failed', doc.error)
      return null
    },
    readFile: async ({ path }) => ({ content: decoder.decode(await withFiles((files) => files.read(path))) }),
    writeFile: async ({ path, content }) => {
      if (target.readOnly) throw new CommandError('denied', 'this embed is read-only')
      await withFiles((files) => files.write(path, encoder.encode(content)))
      return null
    },
    runCommand: async ({ command, cwd }) => ({ pid: await runInTerminal(target, command, cwd) }),
    setTheme: async ({ theme }) => {
      target.setTheme(theme)
      return null
    },
    setLayout: async ({ panels }) => {
      if (panels.length === 0) throw new CommandError('invalid', 'setLayout: name at least one panel')
      target.showPanels(() => panels)
      return null
    },
    openPreview: async ({ port, path }) => {
      target.showPanels(including('preview'))
      target.workspace.preview.open(port, path)
      return null
    },
    focus: async ({ panel }) => {
      window.focus()
      const { editor, terminals } = target.workspace
      const rendered = () => new Promise((resolve) => requestAnimationFrame(resolve))
      if (panel === 'terminal' || (!panel && !editor.getSnapshot().activeId)) {
        target.showPanels(including('terminal'))
        await rendered()
        terminals.active?.focus()
      } else if (panel === 'files') {
        target.showPanels(including('files'))
        await rendered()
        document.querySelector<HTMLElement>('[role="tree"][aria-label="Files"]')?.focus()
      } else {
        target.showPanels(including('editor'))
        await rendered()
        document.querySelector<HTMLElement>('.editor-body textarea')?.focus()
      }
      return null
    },
  }
}
