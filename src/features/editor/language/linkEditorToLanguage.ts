import type * as Monaco from 'monaco-editor/editor/editor.api'
import type { WorkspaceEdit } from 'vscode-languageserver-protocol'
import type { LanguageService } from '../../../sandbox/language/LanguageService'
import type { SandboxFiles } from '../../../sandbox/sandboxFiles'
import type { EditorManager } from '../EditorManager'
import { loadMonaco, preferBuiltInTypeScript } from '../loadMonaco'
import type { TextBuffer } from '../TextBuffer'
import type { EditorWorkspace } from './editorWorkspace'
import { languageOfPath } from './languageOfPath'

/** One open document as the language service knows it. */
interface Tracked {
  path: string
  buffer: TextBuffer
  stop: () => void
}

/** The editor and the sandbox's files as code intelligence uses them. */
export function editorWorkspace(
  editor: EditorManager,
  files: Pick<SandboxFiles, 'read' | 'write'>,
): EditorWorkspace {
  return {
    bufferOf: (path) => editor.bufferOf(path),
    read: (path) => files.read(path),
    write: (path, bytes) => files.write(path, bytes as Uint8Array<ArrayBuffer>),
    open: (path, at) => editor.open(path, at ? { at } : {}),
  }
}

/** Applying a server's edit is fetched when a server first sends one: it stays out of the first page's script. */
const loadEdits = () => import('./applyWorkspaceEdit')

/** Applies a server's edit to the workspace (a quick fix's, a server's own `workspace/applyEdit`). */
export function workspaceEditApplier(workspace: EditorWorkspace): (edit: WorkspaceEdit) => Promise<boolean> {
  return async (edit) => (await loadEdits()).applyWorkspaceEdit(workspace, edit)
}

const loadFeatures = () => import('./monacoLanguage')

/**
 * Ties the editor to the sandbox's language servers: every open text file (not a reduced one)
 * is told to the service as it opens, changes (LSP's incremental changes, from Monaco's own),
 * is saved, moves and closes; Monaco's providers answer from the servers; each file's diagnostics
 * are drawn as markers; and Monaco's own TypeScript service stands aside for the sandbox's.
 * Returns what undoes it.
 */
export function linkEditorToLanguage(
  editor: EditorManager,
  service: LanguageService,
  workspace: EditorWorkspace,
): () => void {
  const tracked = new Map<string, Tracked>()
  let monaco: Awaited<ReturnType<typeof loadMonaco>> | undefined
  preferBuiltInTypeScript(false)

  const drawMarkers = (features: Awaited<ReturnType<typeof loadFeatures>>) => {
    if (!monaco) return
    const { diagnostics } = service.getSnapshot()
    for (const { path, buffer } of tracked.values())
      monaco.monaco.editor.setModelMarkers(
        buffer.model,
        'language-server',
        features.markersOf(monaco.monaco, diagnostics.get(path) ?? []),
      )
  }

  const follow = async () => {
    // Nothing to draw on before a file is open (and Monaco may not even be loaded).
    if (tracked.size === 0) return
    const features = await loadFeatures()
    monaco ??= await loadMonaco()
    drawMarkers(features)
  }

  const track = (id: string, path: string, buffer: TextBuffer) => {
    service.documentOpened(path, buffer.languageId, () => buffer.getText())
    const changes = buffer.model.onDidChangeContent((e: Monaco.editor.IModelContentChangedEvent) =>
      service.documentChanged(
        path,
        e.changes.map((c) => ({
          range: {
            start: { line: c.range.startLineNumber - 1, character: c.range.startColumn - 1 },
            end: { line: c.range.endLineNumber - 1, character: c.range.endColumn - 1 },
          },
          rangeLength: c.rangeLength,
          text: c.text,
        })),
      ),
    )
    let unserve = () => {}
    let stopped = false
    void loadFeatures().then(async (features) => {
      monaco ??= await loadMonaco()
      features.registerLanguageFeatures(monaco.monaco, async (target, edit) =>
        (await loadEdits()).applyWorkspaceEdit(target.editor, edit),
      )
      if (!stopped) unserve = features.serve(buffer.model, { path, service, editor: workspace })
      drawMarkers(features)
    })
    tracked.set(id, {
      path,
      buffer,
      stop: () => {
        stopped = true
        changes.dispose()
        unserve()
        service.documentClosed(path)
        if (!buffer.model.isDisposed())
          monaco?.monaco.editor.setModelMarkers(buffer.model, 'language-server', [])
      },
    })
  }

  const sync = () => {
    const open = new Set<string>()
    for (const doc of editor.getSnapshot().documents) {
      if (doc.view === 'loading') {
        const language = languageOfPath(doc.path)
        if (language) service.warmUp(language)
      }
      if (doc.view !== 'text' || !doc.buffer || doc.reduced) continue
      open.add(doc.id)
      const known = tracked.get(doc.id)
      if (known && known.path === doc.path && known.buffer === doc.buffer) continue
      // A new file, a new buffer, or a move (told as a close and an open: its language may change).
      known?.stop()
      track(doc.id, doc.path, doc.buffer)
    }
    for (const [id, known] of tracked)
      if (!open.has(id)) {
        known.stop()
        tracked.delete(id)
      }
  }

  const stopEditor = editor.subscribe(sync)
  const stopSaved = editor.onSaved((path) => service.documentSaved(path))
  // On unless the workspace's file or its lab turned it off.
  const followEnabled = () => editor.setCodeIntelligence(service.getSnapshot().enabled)
  const stopService = service.subscribe(() => {
    followEnabled()
    void follow()
  })
  followEnabled()
  sync()
  return () => {
    stopEditor()
    stopSaved()
    stopService()
    for (const known of tracked.values()) known.stop()
    tracked.clear()
    editor.setCodeIntelligence(false)
    preferBuiltInTypeScript(true)
  }
}
