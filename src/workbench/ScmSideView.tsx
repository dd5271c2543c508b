import { SourceControlView } from '../features/scm/SourceControlView'
import { useExternalStore } from '../ui/useExternalStore'
import type { SideViewProps } from './sideViews'
import { ViewLoading } from './ViewLoading'

const nothing = { subscribe: () => () => {}, getSnapshot: () => undefined }

/**
 * The Source Control view, once source control is there; its shortcut gives it the keyboard.
 * Its code comes in this module's chunk (itself fetched when the view first shows, or when the
 * page is idle): a chunk of its own was a second fetch after this one, on the way to the first rows.
 */
export function ScmSideView({ sourceControl, focus }: SideViewProps) {
  const scm = useExternalStore(sourceControl?.store ?? nothing)
  if (!scm || !sourceControl) return <ViewLoading title="Source Control" />
  return <SourceControlView scm={scm} {...sourceControl} focus={focus} />
}
