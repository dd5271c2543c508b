import type { PanelName } from '@sandbox-ide/embed/protocol'
import { Suspense, useEffect, useMemo, useRef, useState } from 'react'
import { StatusBar } from '../features/statusbar/StatusBar'
import { TerminalEchoStatus } from '../features/terminal/TerminalEchoStatus'
import { portChanges } from '../sandbox/portWatch'
import type { SandboxSession } from '../sandbox/SandboxSession'
import { addressKey } from '../sandbox/sandboxAddress'
import type { ListeningPort } from '../sandbox/sandboxPorts'
import { FocusRequest } from '../ui/FocusRequest'
import { lazyNamed } from '../ui/lazyNamed'
import { reportErrors } from '../ui/notifications'
import { type Theme, useThemeStore } from '../ui/themeStore'
import { useExternalStore } from '../ui/useExternalStore'
import { useWorkspace } from '../workbench/useWorkspace'
import { WorkbenchLayout } from '../workbench/WorkbenchLayout'
import type { Workspace } from '../workbench/Workspace'
import { ConsentDialog } from './ConsentDialog'
import { ConsentQueue } from './consent'
import { type EmbedTarget, embedCommands, including, runInTerminal } from './embedCommands'
import type { EmbedHost } from './embedHost'
import type { EmbedOptions } from './embedOptions'

// Code intelligence's status comes with its own code, only where it is on.
const LanguageStatus = lazyNamed(() => import('../features/statusbar/LanguageStatus'), 'LanguageStatus')

interface EmbedWorkbenchProps {
  session: SandboxSession
  host: EmbedHost
  options: EmbedOptions
  /** The parent's origin is trusted: its commands run without asking. */
  trusted: boolean
  parentOrigin: string
  theme: Theme
}

/**
 * The workbench inside another page: only the panels asked for, no app chrome, driven by the
 * parent through the host (commands in, events out). Commands the user did not type wait for
 * their agreement unless the parent is trusted.
 */
export function EmbedWorkbench(props: EmbedWorkbenchProps) {
  const workspace = useWorkspace(props.session, props.theme, {
    lab: false,
    codeIntelligence: props.options.codeIntelligence,
  })
  return workspace ? <EmbeddedWorkspace {...props} workspace={workspace} /> : null
}

function EmbeddedWorkspace({
  workspace,
  host,
  options,
  trusted,
  parentOrigin,
  theme,
}: EmbedWorkbenchProps & { workspace: Workspace }) {
  const { session, terminals, editor } = workspace
  const running = useExternalStore(session).state.kind === 'running'
  const language = useExternalStore(workspace.language)
  const [panels, setPanels] = useState<PanelName[]>(options.panels)
  const [problemsFocus] = useState(() => new FocusRequest())
  const consent = useMemo(() => new ConsentQueue(), [])
  const target = useMemo<EmbedTarget>(
    () => ({
      workspace,
      consent,
      trusted,
      requester: parentOrigin,
      readOnly: options.readOnly,
      showPanels: setPanels,
      setTheme: (choice) => useThemeStore.getState().setChoice(choice),
    }),
    [workspace, consent, trusted, parentOrigin, options.readOnly],
  )
  useEffect(() => host.serve(embedCommands(target)), [host, target])

  useEffect(() => {
    if (!options.readOnly) return
    return editor.addReadOnlyRule(() => 'This embedded editor is read-only.')
  }, [editor, options.readOnly])
  useEffect(() => editor.onSaved((path) => host.emit('fileSaved', { path })), [editor, host])
  useEffect(
    () =>
      terminals.onExit((terminal, status) =>
        host.emit('processExited', {
          pid: status.pid ?? -1,
          command: terminal.command ?? 'bash -l',
          exitCode: status.exitCode,
          status: status.description,
        }),
      ),
    [terminals, host],
  )
  useEffect(() => {
    if (!running) return
    // The first look reports every port open as opened.
    let seen: ListeningPort[] = []
    const report = () => {
      const next = workspace.ports.getSnapshot() ?? []
      const { opened, closed } = portChanges(seen, next)
      seen = next
      for (const port of opened) host.emit('portOpened', { port })
      for (const port of closed) host.emit('portClosed', { port })
    }
    // What the panels' looks already found counts as well.
    report()
    return workspace.ports.subscribe(report)
  }, [workspace, host, running])
  useEffect(() => {
    let last = session.getSnapshot().state.kind
    host.emit('stateChanged', { state: last })
    return session.subscribe(() => {
      const { kind } = session.getSnapshot().state
      if (kind !== last) host.emit('stateChanged', { state: kind })
      last = kind
    })
  }, [session, host])

  // Ready once the sandbox runs; then the URL's file, preview and command.
  const announced = useRef(false)
  useEffect(() => {
    if (!running || announced.current) return
    announced.current = true
    host.emit('ready', { panels: options.panels, readOnly: options.readOnly })
    if (options.open)
      void reportErrors(`Opening ${options.open} failed`, () => editor.open(options.open as string))
    if (options.preview) workspace.preview.open(options.preview.port, options.preview.path)
    const command = options.run
    if (command) {
      // A declined command is the user's answer, not an error to report.
      void runInTerminal({ ...target, requester: `${parentOrigin} (in the embed link)` }, command).catch(
        () => {},
      )
    }
  }, [running, editor, host, options, target, parentOrigin, workspace])

  return (
    <div className="workbench embedded">
      <WorkbenchLayout
        workspace={workspace}
        theme={theme}
        visibility={{
          explorer: panels.includes('files'),
          editor: panels.includes('editor'),
          terminal: panels.includes('terminal'),
          preview: panels.includes('preview'),
        }}
        layoutKey={`embed:${addressKey(session.address)}`}
        showTerminal={() => setPanels(including('terminal'))}
        readOnly={options.readOnly}
        problemsFocus={problemsFocus}
      />
      <StatusBar session={session}>
        <TerminalEchoStatus terminals={terminals} />
        {language && (
          <Suspense fallback={null}>
            <LanguageStatus
              language={language}
              // The Problems panel is in the sidebar, which the parent chose to show or not: the
              // counts lead there only when it is shown.
              onShowProblems={panels.includes('files') ? () => problemsFocus.request() : undefined}
            />
          </Suspense>
        )}
      </StatusBar>
      <ConsentDialog queue={consent} />
    </div>
  )
}
