/** Whether the page is in view; true where there is no page (Node, tests), which never hides. */
export const pageVisible = (): boolean =>
  typeof document === 'undefined' || document.visibilityState === 'visible'

/** Calls `listener` each time the page comes into view again; returns what stops it. */
export function onPageShown(listener: () => void): () => void {
  if (typeof document === 'undefined') return () => {}
  const onChange = () => {
    if (pageVisible()) listener()
  }
  document.addEventListener('visibilitychange', onChange)
  return () => document.removeEventListener('visibilitychange', onChange)
}
