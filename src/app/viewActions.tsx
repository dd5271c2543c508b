import { Suspense, useCallback, useSyncExternalStore } from 'react'
import { Subscribers } from '../common/Subscribers'
import { lazyNamed } from '../ui/lazyNamed'
import { useExternalStore } from '../ui/useExternalStore'
import { useOpenedOnce } from '../ui/useOpenedOnce'
import { sideViewFocus, useActivityStore } from '../workbench/activityStore'
import { searchOf } from '../workbench/loadSearch'
import { sideViews } from '../workbench/Sidebar'
import type { Workspace } from '../workbench/Workspace'
import type { Command } from './commands'
import type { Shortcut } from './useGlobalShortcuts'

const nothing = { subscribe: () => () => {}, getSnapshot: () => undefined }
const GoToFile = lazyNamed(() => import('../features/search/GoToFile'), 'GoToFile')

/** The keyboard is in a terminal (its screen, or its own find box). */
const focusInTerminal = () => !!document.activeElement?.closest('.terminal')

/** Whether Go to File is open (one workbench per page). */
const goToFile = {
  open: false,
  subscribers: new Subscribers(),
  set(open: boolean) {
    goToFile.open = open
    goToFile.subscribers.notify()
  },
}

/** Showing the sidebar's views, their shortcuts and their palette entries. */
export interface ViewActions {
  /** Shows a view (and the sidebar, if hidden); with `focus`, the view takes the keyboard. */
  showView(id: string, options?: { focus?: boolean }): void
  shortcuts: Shortcut[]
  /** The palette's entries, as the sandbox's state allows them now. */
  commands(): Command[]
}

/**
 * The activity bar's side of the workbench, fetched after the page renders (it stays out of the
 * first page's script): each view's shortcut from the list of views (Ctrl+Shift+E toggles the
 * sidebar when the Explorer is what it shows, as the shortcut did before there were views;
 * Ctrl+Shift+F is the terminal's own find while a terminal has the keyboard), Ctrl+Shift+H for
 * Replace in Files, Ctrl+P for Go to File (a shell's Ctrl+P stays the terminal's, as the
 * project's rule for shortcuts says), and their palette entries.
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
  const notInTerminal = () => !focusInTerminal()
  const shortcuts: Shortcut[] = sideViews.flatMap(({ id, key, terminalKeepsKey }) =>
    key
      ? [
          {
            key,
            ctrl: true,
            shift: true,
            ...(terminalKeepsKey ? { when: notInTerminal } : {}),
            run: id === 'explorer' ? showExplorer : () => showView(id),
          },
        ]
      : [],
  )
  shortcuts.push(
    { key: 'h', ctrl: true, shift: true, run: showReplace },
    { key: 'p', ctrl: true, when: notInTerminal, run: () => goToFile.set(true) },
  )
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
  ]
  return { showView, shortcuts, commands }
}

/** Go to File's dialog, fetched the first time it opens (Ctrl+P, or the palette). */
export function GoToFileOverlay({ workspace }: { workspace: Workspace }) {
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
