import { useEffect } from 'react'
import { SearchView } from '../features/search/SearchView'
import { useExternalStore } from '../ui/useExternalStore'
import { searchOf } from './loadSearch'
import type { SideViewProps } from './sideViews'
import { ViewLoading } from './ViewLoading'

/**
 * The Search view, once the workspace's search is there (made when it first shows); its shortcut
 * puts the keyboard in the query box. The view's code is in this module's chunk, not one of its own
 * fetched after it.
 */
export function SearchSideView({ workspace, explorer, focus }: SideViewProps) {
  const kit = useExternalStore(searchOf(workspace))
  const requested = useExternalStore(focus)
  useEffect(() => {
    if (kit && requested > 0 && focus.take()) kit.model.reveal('query')
  }, [kit, requested, focus])
  if (!kit) return <ViewLoading title="Search" />
  return <SearchView model={kit.model} canReplace={!explorer.readOnly} />
}
