import type { ComponentType } from 'react'
import type { FocusRequest } from '../ui/FocusRequest'
import { lazyNamed } from '../ui/lazyNamed'
import { ExplorerStack } from './ExplorerStack'
import type { SidebarProps } from './sidebarProps'

/** What a view is given: the sidebar's props, and requests to take the keyboard (its shortcut was pressed). */
export type SideViewProps = SidebarProps & { focus: FocusRequest }

/** One view of the sidebar, one tab of the activity bar. */
export interface SideView {
  id: string
  title: string
  /** A codicon's name. */
  icon: string
  /** Whether the workspace has it (source control where it is on); always, without. */
  when?(props: SidebarProps): boolean
  /**
   * The view; one that is not the first a sidebar shows is fetched when the page is idle (its
   * `preload`), or when it first shows if that is sooner.
   */
  view: ComponentType<SideViewProps> & { preload?(): void }
}

/**
 * The sidebar's views, in the activity bar's order: adding one is adding an entry here. The
 * workbench makes each one's key show it (the sidebar too, if hidden) and ask it for the keyboard.
 */
export const sideViews: readonly SideView[] = [
  {
    id: 'explorer',
    title: 'Explorer',
    icon: 'files',
    view: ExplorerStack,
  },
  {
    id: 'search',
    title: 'Search',
    icon: 'search',
    view: lazyNamed(() => import('./SearchSideView'), 'SearchSideView'),
  },
  {
    id: 'scm',
    title: 'Source Control',
    icon: 'source-control',
    when: (p) => !!p.sourceControl,
    view: lazyNamed(() => import('./ScmSideView'), 'ScmSideView'),
  },
]
