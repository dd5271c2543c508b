import './editor.css'
import { Suspense, useEffect, useRef } from 'react'
import type { FileWatch } from '../../sandbox/fileWatch'
import type { SourceControl } from '../../sandbox/git/SourceControl'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { stateLabel } from '../../sandbox/sessionState'
import { lazyNamed } from '../../ui/lazyNamed'
import type { Theme } from '../../ui/themeStore'
import { type ExternalStore, useExternalStore } from '../../ui/useExternalStore'
import { useOpenedOnce } from '../../ui/useOpenedOnce'
import { CodeEditor } from './CodeEditor'
import { ConfirmCloseDialog } from './ConfirmCloseDialog'
import { DiffView } from './DiffView'
import { DocumentBanners } from './DocumentBanners'
import type { EditorManager } from './EditorManager'
import { EditorTabs, tabId } from './EditorTabs'
import { FileStatusView } from './FileStatusView'

// File: Open… (cmdk and its dialog) is fetched when first asked for.
const OpenFileDialog = lazyNamed(() => import('./OpenFileDialog'), 'OpenFileDialog')

/** Source control, once its code has loaded: the tabs colour changed files. */
type SourceControlStore = ExternalStore<Pick<SourceControl, 'subscribe' | 'getSnapshot'> | undefined>
const nothing = { subscribe: () => () => {}, getSnapshot: () => undefined }

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/** Where open files are edited: tabs, banners, the editor (or a diff, or why a file is not text). */
export function EditorArea({
  session,
  watch,
  manager,
  theme,
  sourceControl,
}: {
  session: SandboxSession
  watch: FileWatch | undefined
  manager: EditorManager | undefined
  theme: Theme
  sourceControl?: SourceControlStore | undefined
}) {
  return (
    <section className="panel editor-area" aria-label="Editor">
      {manager ? (
        <OpenFiles
          session={session}
          watch={watch}
          manager={manager}
          theme={theme}
          sourceControl={sourceControl}
        />
      ) : (
        <EmptyState />
      )}
    </section>
  )
}

function EmptyState() {
  return (
    <div className="empty-state">
      <h2>No file open</h2>
      <p>
        Press <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>P</kbd> and choose “File: Open…”, or use the terminal
        below.
      </p>
    </div>
  )
}

function OpenFiles({
  session,
  watch,
  manager,
  theme,
  sourceControl,
}: {
  session: SandboxSession
  watch: FileWatch | undefined
  manager: EditorManager
  theme: Theme
  sourceControl: SourceControlStore | undefined
}) {
  const snap = useExternalStore(manager)
  const git = useExternalStore(useExternalStore(sourceControl ?? nothing) ?? nothing)
  const quickOpenWanted = useOpenedOnce(snap.quickOpen)
  const { state } = useExternalStore(session)
  const active = snap.documents.find((d) => d.id === snap.activeId)
  const closing = snap.documents.find((d) => d.id === snap.closing)
  const readOnlyReason =
    state.kind === 'running'
      ? active?.readOnly
      : state.kind === 'signed-out'
        ? 'This browser is signed out of the sandbox: editing is disabled.'
        : `The sandbox is ${stateLabel(state).toLowerCase()}: editing is disabled until it runs again.`
  const hasText = snap.documents.some((d) => d.view === 'text')
  const diskText = active?.comparing ? active.conflict?.diskText : undefined
  // The disk's version in a conflict, or another version the Source Control view asked for.
  const against = active && diskText === undefined ? snap.comparisons.get(active.id) : undefined
  const comparing = !!active?.buffer && active.view === 'text' && (diskText !== undefined || !!against)

  const container = useRef<HTMLDivElement>(null)
  useEffect(() => {
    // Ctrl/Cmd+S from inside the editor area, or from nowhere in particular (the page itself, after
    // a banner's button went away): never from the terminal, where the keys belong to the shell.
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const mod = isMac ? event.metaKey : event.ctrlKey
      if (!mod || event.shiftKey || event.altKey || event.key.toLowerCase() !== 's') return
      const target = event.target instanceof Node ? event.target : null
      const inside = !!target && !!container.current?.contains(target)
      if (!inside && target !== document.body && target !== document.documentElement) return
      event.preventDefault()
      event.stopPropagation()
      void manager.save()
    }
    window.addEventListener('keydown', onKeyDown, { capture: true })
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true })
  }, [manager])

  return (
    <div className="open-files" ref={container}>
      {snap.documents.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <EditorTabs
            documents={snap.documents}
            activeId={snap.activeId}
            manager={manager}
            changes={git?.decorations}
          />
          <div
            className="editor-body"
            role="tabpanel"
            id={active ? `${active.id}-panel` : undefined}
            aria-labelledby={active ? tabId(active) : undefined}
          >
            {readOnlyReason && (
              <div className="editor-banner" role="status" data-testid="editor-readonly">
                <span>Read-only. {readOnlyReason}</span>
              </div>
            )}
            {active && (
              <DocumentBanners doc={active} manager={manager} codeIntelligence={snap.codeIntelligence} />
            )}
            {active && active.view !== 'text' && <FileStatusView doc={active} manager={manager} />}
            {comparing && active?.buffer && diskText !== undefined && (
              <DiffView buffer={active.buffer} original={diskText} readOnly={!!readOnlyReason} />
            )}
            {comparing && active?.buffer && against && (
              <DiffView
                key={active.id}
                buffer={active.buffer}
                original={against.text}
                readOnly={!!readOnlyReason}
                labels={[`${against.label} (read-only)`, 'Working tree']}
                onClose={() => manager.stopComparing(active.id)}
              />
            )}
            {hasText && (
              <CodeEditor
                buffer={active?.view === 'text' ? active.buffer : undefined}
                readOnlyReason={readOnlyReason}
                theme={theme}
                focusRequest={snap.focusRequest}
                takeFocus={() => manager.takeFocusRequest()}
                reveal={snap.reveal?.documentId === active?.id ? snap.reveal : undefined}
                hidden={active?.view !== 'text' || !!comparing}
              />
            )}
          </div>
        </>
      )}
      <ConfirmCloseDialog doc={closing} manager={manager} />
      {quickOpenWanted && (
        <Suspense fallback={null}>
          <OpenFileDialog open={snap.quickOpen} session={session} manager={manager} home={watch?.root} />
        </Suspense>
      )}
    </div>
  )
}
