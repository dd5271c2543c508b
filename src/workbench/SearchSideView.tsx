import { Suspense, useEffect } from 'react'
import { lazyNamed } from '../ui/lazyNamed'
import { useExternalStore } from '../ui/useExternalStore'
import { searchOf } from './loadSearch'
import type { SideViewProps } from './sideViews'
import { ViewLoading } from './ViewLoading'

const SearchView = lazyNamed(() => import('../features/search/SearchView'), 'SearchView')

/**
 * The Search view, once its code and the workspace's search are there (fetched when it first
 * shows); its shortcut puts the keyboard in the query box.
 */
export function SearchSideView({ workspace, explorer, focus }: SideViewProps) {
  const kit = useExternalStore(searchOf(workspace))
  const requested = useExternalStore(focus)
  useEffect(() => {
    if (kit && requested > 0 && focus.take()) kit.model.reveal('query')
  }, [kit, requested, focus])
  if (!kit) return <ViewLoading title="Search" />
  return (
    <Suspense fallback={<ViewLoading title="Search" />}>
      <SearchView model={kit.model} canReplace={!explorer.readOnly} />
    </Suspense>
  )
}
