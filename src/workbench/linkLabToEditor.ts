import type { LabManifest } from '../contract/labManifest'
import type { EditorManager } from '../features/editor/EditorManager'
import type { LabController } from '../features/lab/LabController'

/**
 * Lets a lab steer the editor: its read-only paths cannot be edited, and the files it names in
 * `open` are opened once, when the lab first shows (the first of them in front, the keyboard
 * left where it is). Returns a function that undoes the link.
 */
export function linkLabToEditor(lab: LabController, editor: EditorManager): () => void {
  let manifest: LabManifest | undefined
  let opened = false
  let liftRule = () => {}
  const follow = () => {
    const { lab: state, home } = lab.getSnapshot()
    const next = state.kind === 'ready' ? state.manifest : undefined
    if (next === manifest) return
    manifest = next
    // Added again, so the editor asks anew for every open file.
    liftRule()
    liftRule = editor.addReadOnlyRule((path) => lab.readOnlyReason(path))
    if (!next || !home || opened) return
    opened = true
    void (async () => {
      const paths = next.open.map((p) => `${home}/${p}`)
      // Without the keyboard: someone may be typing in a terminal as the lab shows.
      for (const path of paths) await editor.open(path, { focus: false })
      if (paths.length > 1 && paths[0]) await editor.open(paths[0], { focus: false })
    })()
  }
  const stop = lab.subscribe(follow)
  follow()
  return () => {
    stop()
    liftRule()
  }
}
