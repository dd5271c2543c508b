import { Suspense, useCallback, useEffect, useState, useSyncExternalStore } from 'react'
import { Later } from '../common/Later'
import { retryImport } from '../common/retryImport'
import { Subscribers } from '../common/Subscribers'
import type { LanguageService } from '../sandbox/language/LanguageService'
import type { SymbolSource } from '../sandbox/language/workspaceSymbols'
import { lazyNamed } from '../ui/lazyNamed'
import { useExternalStore } from '../ui/useExternalStore'
import { useOpenedOnce } from '../ui/useOpenedOnce'
import { sideViewFocus, useActivityStore } from '../workbench/activityStore'
import { searchOf } from '../workbench/loadSearch'
import { viewKeys } from '../workbench/viewKeys'
import type { Workspace } from '../workbench/Workspace'
import type { Command } from './commands'
import type { Shortcut } from './useGlobalShortcuts'

const nothing = { subscribe: () => () => {}, getSnapshot: () => undefined }
const GoToFile = lazyNamed(() => import('../features/search/GoToFile'), 'GoToFile')
const GoToSymbol = lazyNamed(() => import('../features/search/GoToSymbol'), 'GoToSymbol')

/** Whether a quick pick is open (one workbench per page). */
function openState() {
  const state = {
    open: false,
    subscribers: new Subscribers(),
    set(open: boolean) {
      state.open = open
      state.subscribers.notify()
    },
  }
  return state
}
const goToFile = openState()
const goToSymbol = openState()

/** Showing the sidebar's views, their shortcuts and their palette entries. */
export interface ViewActions {
  /** Shows a view (and the sidebar, if hidden); with `focus`, the view takes the keyboard. */
  showView(id: string, options?: { focus?: boolean }): void
  /** Does what a key of `viewKeys` names. */
  run(action: string): void
  shortcuts: Shortcut[]
  /** The palette's entries, as the sandbox's state allows them now. */
  commands(): Command[]
}

/**
 * The activity bar's side of the workbench, fetched after the page renders (it stays out of the
 * first page's script): what the keys of `viewKeys` do (Ctrl+Shift+E toggles the sidebar when
 * the Explorer is what it shows, as the shortcut did before there were views; Ctrl+Shift+H is
 * Replace in Files, Ctrl+P Go to File, Ctrl+T Go to Symbol in Workspace), and their palette entries.
 */
export function viewActions(
  workspace: Workspace,
  layoutKey: string,
  shown: boolean,
  toggleSidebar: () => void,
): ViewActions {
  const sidebarShown = () => shown
  const showView = (id: string, { focus = true }: { focus?: boolean } = {}) => {
    if (!sidebarShown()) toggleSidebar()
    useActivityStore.getState().setActive(layoutKey, id)
    if (focus) sideViewFocus(id).request()
  }
  const showExplorer = () => {
    const active = useActivityStore.getState().active[layoutKey] ?? 'explorer'
    if (sidebarShown() && active === 'explorer') toggleSidebar()
    else showView('explorer', { focus: false })
  }
  const showReplace = () => {
    showView('search', { focus: false })
    const search = searchOf(workspace)
    const reveal = () => {
      const kit = search.getSnapshot()
      kit?.model.reveal('replace')
      return !!kit
    }
    if (reveal()) return
    const stop = search.subscribe(() => {
      if (reveal()) stop()
    })
  }
  const actions: Record<string, () => void> = {
    explorer: showExplorer,
    replace: showReplace,
    goToFile: () => goToFile.set(true),
    goToSymbol: () => goToSymbol.set(true),
  }
  const run = (action: string) => (actions[action] ?? (() => showView(action)))()
  const shortcuts: Shortcut[] = viewKeys.map(({ action, ...key }) => ({ ...key, run: () => run(action) }))
  const commands = (): Command[] => [
    {
      id: 'view.search',
      title: 'View: Search',
      shortcut: 'Ctrl+Shift+F',
      enabled: true,
      run: () => showView('search'),
    },
    {
      id: 'search.replace',
      title: 'Search: Replace in Files',
      shortcut: 'Ctrl+Shift+H',
      enabled: true,
      run: showReplace,
    },
    {
      id: 'file.goToFile',
      title: 'Go to File…',
      shortcut: 'Ctrl+P',
      enabled: workspace.session.getSnapshot().state.kind === 'running',
      run: () => goToFile.set(true),
    },
    {
      id: 'workbench.goToSymbol',
      title: 'Go to Symbol in Workspace…',
      shortcut: 'Ctrl+T',
      enabled: workspace.session.getSnapshot().state.kind === 'running',
      run: () => goToSymbol.set(true),
    },
  ]
  return { showView, run, shortcuts, commands }
}

/** The quick picks: Go to File and Go to Symbol in Workspace. */
export function QuickOpenOverlays({ workspace }: { workspace: Workspace }) {
  return (
    <>
      <GoToFileOverlay workspace={workspace} />
      <GoToSymbolOverlay workspace={workspace} />
    </>
  )
}

/** Go to File's dialog, fetched the first time it opens (Ctrl+P, or the palette). */
function GoToFileOverlay({ workspace }: { workspace: Workspace }) {
  const open = useSyncExternalStore(goToFile.subscribers.add, () => goToFile.open)
  const wanted = useOpenedOnce(open)
  // Made (and its code fetched) when Go to File first opens.
  const kit = useExternalStore(wanted ? searchOf(workspace) : nothing)
  const recent = useCallback(() => kit?.recent.list() ?? [], [kit])
  if (!wanted || !kit) return null
  return (
    <Suspense fallback={null}>
      <GoToFile
        open={open}
        onOpenChange={(next) => goToFile.set(next)}
        files={kit.files}
        recent={recent}
        // The editor has no side group: Ctrl+Enter opens the file as Enter does.
        onOpen={(path) => void workspace.editor.open(path)}
      />
    </Suspense>
  )
}

const symbolSources = new WeakMap<Workspace, Later<SymbolSource>>()

/** The workspace's symbols from its language servers, their code fetched when first wanted. */
function symbolsOf(workspace: Workspace): Later<SymbolSource> {
  let symbols = symbolSources.get(workspace)
  if (!symbols) {
    const later = new Later<SymbolSource>()
    symbols = later
    symbolSources.set(workspace, later)
    // Code intelligence's own code may still be on its way: the symbols follow it.
    const start = (language: LanguageService) =>
      void retryImport(() => import('../sandbox/language/workspaceSymbols')).then(({ WorkspaceSymbols }) =>
        later.set(new WorkspaceSymbols(language)),
      )
    const language = workspace.language.getSnapshot()
    if (language) start(language)
    else if (workspace.codeIntelligence) {
      const stop = workspace.language.subscribe(() => {
        const arrived = workspace.language.getSnapshot()
        if (!arrived) return
        stop()
        start(arrived)
      })
    }
  }
  return symbols
}

/** Go to Symbol in Workspace's dialog, fetched the first time it opens (Ctrl+T, or the palette). */
function GoToSymbolOverlay({ workspace }: { workspace: Workspace }) {
  const open = useSyncExternalStore(goToSymbol.subscribers.add, () => goToSymbol.open)
  const wanted = useOpenedOnce(open)
  const symbols = useExternalStore(wanted ? symbolsOf(workspace) : nothing)
  const [root, setRoot] = useState<string>()
  useEffect(() => {
    if (wanted) void workspace.session.files.home().then(setRoot, () => {})
  }, [wanted, workspace])
  // Without code intelligence there is nothing to wait for: the dialog says so.
  if (!wanted || (workspace.codeIntelligence && !symbols)) return null
  return (
    <Suspense fallback={null}>
      <GoToSymbol
        open={open}
        onOpenChange={(next) => goToSymbol.set(next)}
        symbols={symbols}
        root={root}
        onOpen={(path, at) =>
          void workspace.editor.open(path, {
            ...(at
              ? { at: { startLine: at.line, startColumn: at.column, endLine: at.line, endColumn: at.column } }
              : {}),
          })
        }
      />
    </Suspense>
  )
}
