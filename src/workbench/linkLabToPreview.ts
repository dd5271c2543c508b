import type { LabController } from '../features/lab/LabController'
import type { PreviewModel } from '../features/preview/PreviewModel'

/**
 * Shows the port a lab names in `preview` once, when the lab first shows: the pane waits while
 * nothing listens and loads the page once the student's server starts. Returns a function that
 * stops following the lab.
 */
export function linkLabToPreview(
  lab: Pick<LabController, 'subscribe' | 'getSnapshot'>,
  preview: PreviewModel,
): () => void {
  let shown = false
  const follow = () => {
    const { lab: state } = lab.getSnapshot()
    if (shown || state.kind !== 'ready' || !state.manifest.preview) return
    shown = true
    preview.open(state.manifest.preview.port, state.manifest.preview.path)
  }
  const stop = lab.subscribe(follow)
  follow()
  return stop
}
