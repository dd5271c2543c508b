import { Suspense } from 'react'
import { lazyNamed } from '../ui/lazyNamed'
import { useExternalStore } from '../ui/useExternalStore'
import type { SideViewProps } from './sideViews'
import { ViewLoading } from './ViewLoading'

const SourceControlView = lazyNamed(() => import('../features/scm/SourceControlView'), 'SourceControlView')
const nothing = { subscribe: () => () => {}, getSnapshot: () => undefined }

/** The Source Control view, once source control is there; its shortcut gives it the keyboard. */
export function ScmSideView({ sourceControl, focus }: SideViewProps) {
  const scm = useExternalStore(sourceControl?.store ?? nothing)
  if (!scm || !sourceControl) return <ViewLoading title="Source Control" />
  return (
    <Suspense fallback={<ViewLoading title="Source Control" />}>
      <SourceControlView scm={scm} {...sourceControl} focus={focus} />
    </Suspense>
  )
}
