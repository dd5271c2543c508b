import './activityBar.css'
import { type KeyboardEvent, Suspense, useEffect, useRef } from 'react'
import { Icon } from '../ui/Icon'
import { sideViewFocus, useActiveView, useActivityStore } from './activityStore'
import type { SidebarProps } from './sidebarProps'
import { type SideView, sideViews } from './sideViews'
import { viewKeyOf } from './viewKeys'

export type { SidebarProps, SidebarSourceControl } from './sidebarProps'

/**
 * The left column: VS Code's activity bar and the view it selects (Explorer, Search, Source
 * Control). The bar is a vertical tablist with one tab stop: Up and Down move (around) and show the
 * view at once (automatic activation); each tab names its view, its tooltip its shortcut too.
 * A view once shown stays mounted while another shows, so it keeps its state (the explorer's open
 * folders, the search's results), as VS Code keeps them.
 */
export function Sidebar(props: SidebarProps) {
  const views = sideViews.filter((view) => !view.when || view.when(props))
  const chosen = useActiveView(props.layoutKey)
  const active = views.find((view) => view.id === chosen) ?? views[0]
  // The views shown so far (only ever added to, so a render that runs twice adds nothing new).
  const shown = useRef(new Set<string>()).current
  if (active) shown.add(active.id)
  // The other views' code, fetched once the page is idle: a view's first showing does not wait for it.
  const preloads = views.map((view) => view.view.preload).filter((p) => p !== undefined)
  const preloadKey = views.map((view) => view.id).join()
  // biome-ignore lint/correctness/useExhaustiveDependencies: the views available decide, not their functions' identity
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1000))
    const cancel = window.cancelIdleCallback ?? window.clearTimeout
    const handle = idle(() => {
      for (const preload of preloads) preload()
    })
    return () => cancel(handle)
  }, [preloadKey])
  const select = (id: string) => useActivityStore.getState().setActive(props.layoutKey, id)
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0
    const at = (views.indexOf(active as SideView) + step + views.length) % views.length
    const to = step && views[at]
    if (!to) return
    event.preventDefault()
    select(to.id)
    ;(event.currentTarget.children[at] as HTMLElement).focus()
  }
  return (
    <div className="sidebar">
      <div
        className="activity-bar"
        role="tablist"
        aria-label="Views"
        aria-orientation="vertical"
        onKeyDown={onKeyDown}
      >
        {views.map(({ id, title, icon }) => {
          const key = viewKeyOf(id)?.toUpperCase()
          return (
            <button
              key={id}
              id={`activity-tab-${id}`}
              type="button"
              role="tab"
              className="activity-tab"
              aria-selected={id === active?.id}
              aria-controls={`activity-panel-${id}`}
              aria-label={title}
              aria-keyshortcuts={key && `Control+Shift+${key}`}
              title={key ? `${title} (Ctrl+Shift+${key})` : title}
              tabIndex={id === active?.id ? 0 : -1}
              onClick={() => select(id)}
            >
              <Icon name={icon} />
            </button>
          )
        })}
      </div>
      {views.map((view) => (
        <div
          key={view.id}
          id={`activity-panel-${view.id}`}
          role="tabpanel"
          aria-labelledby={`activity-tab-${view.id}`}
          className="sidebar-view"
          hidden={view !== active}
        >
          {shown.has(view.id) && (
            <Suspense fallback={null}>
              <view.view {...props} focus={sideViewFocus(view.id)} />
            </Suspense>
          )}
        </div>
      ))}
    </div>
  )
}
