import type * as Monaco from 'monaco-editor/editor/editor.api'
import type { SourceControl, SourceControlSnapshot } from '../../../sandbox/git/SourceControl'
import { decodeText } from '../decodeText'
import type { EditorManager } from '../EditorManager'
import type { TextBuffer } from '../TextBuffer'
import { type LineChange, lineChanges } from './lineChanges'

/** What the gutter uses of source control: HEAD's version of a file, and word when HEAD moves. */
export type GitOriginals = Pick<SourceControl, 'subscribe' | 'getSnapshot' | 'read' | 'relativePath'>

/** Edits are marked this long after the typing stops. */
const settleMs = 300

/** One open file as the gutter follows it. */
interface Tracked {
  id: string
  path: string
  buffer: TextBuffer
  /** HEAD's text of the file; undefined when HEAD has none (a new file) or it is not text. */
  head: string | undefined
  decorations: string[]
  timer: ReturnType<typeof setTimeout> | undefined
  stop(): void
}

/** Which HEAD the texts were read from: the repository and its commit. */
function headKey({ state }: SourceControlSnapshot): string | undefined {
  return state.kind === 'repository' ? `${state.root}\n${state.status.branch.oid ?? ''}` : undefined
}

const classes: Record<LineChange['kind'], string> = {
  added: 'dirty-diff dirty-diff-added',
  changed: 'dirty-diff dirty-diff-modified',
  removed: 'dirty-diff dirty-diff-deleted',
}
/** Monaco's OverviewRulerLane.Left, a number here so that this file needs no Monaco to run (its tests). */
const leftLane = 1 as Monaco.editor.OverviewRulerLane
const rulerColors: Record<LineChange['kind'], string> = {
  added: '#587c0c',
  changed: '#1b81a8',
  removed: '#f14c4c',
}

/**
 * The editor's gutter marks lines that differ from HEAD, as VS Code's dirty diff does: a green bar
 * by added lines, a blue one by changed lines, a red triangle where lines were removed (also in
 * the overview ruler). Marked again a moment after each edit, and when HEAD moves (a commit, a
 * checkout: the status says so). Returns what undoes it.
 */
export function linkEditorToGit(editor: EditorManager, git: GitOriginals): () => void {
  const tracked = new Map<string, Tracked>()
  let key = headKey(git.getSnapshot())

  const draw = (t: Tracked) => {
    if (t.buffer.model.isDisposed()) return
    const changes = t.head === undefined ? [] : lineChanges(t.head, t.buffer.getText())
    t.decorations = t.buffer.model.deltaDecorations(
      t.decorations,
      changes.map((c): Monaco.editor.IModelDeltaDecoration => {
        // Removed lines are marked on the line above them; at the top, on the first line.
        const line = Math.max(1, c.startLine)
        return {
          range: { startLineNumber: line, startColumn: 1, endLineNumber: c.endLine || 1, endColumn: 1 },
          options: {
            isWholeLine: true,
            linesDecorationsClassName: `${classes[c.kind]}${c.kind === 'removed' && c.startLine === 0 ? ' dirty-diff-top' : ''}`,
            overviewRuler: { color: rulerColors[c.kind], position: leftLane },
          },
        }
      }),
    )
  }

  const readHead = async (t: Tracked) => {
    const wanted = key
    const relative = git.relativePath(t.path)
    let head: string | undefined
    if (wanted && relative !== undefined) {
      const bytes = await git.read('HEAD', relative).catch(() => undefined)
      head = bytes && decodeText(bytes)
    }
    // Closed, replaced or HEAD moved again meanwhile: a later read draws.
    if (tracked.get(t.id) !== t || wanted !== key) return
    t.head = head
    draw(t)
  }

  const track = (id: string, path: string, buffer: TextBuffer) => {
    const t: Tracked = {
      id,
      path,
      buffer,
      head: undefined,
      decorations: [],
      timer: undefined,
      stop: () => {
        clearTimeout(t.timer)
        edits.dispose()
        if (!buffer.model.isDisposed()) buffer.model.deltaDecorations(t.decorations, [])
      },
    }
    const edits = buffer.model.onDidChangeContent(() => {
      clearTimeout(t.timer)
      t.timer = setTimeout(() => draw(t), settleMs)
    })
    tracked.set(id, t)
    void readHead(t)
  }

  const sync = () => {
    const open = new Set<string>()
    for (const doc of editor.getSnapshot().documents) {
      if (doc.view !== 'text' || !doc.buffer || doc.reduced) continue
      open.add(doc.id)
      const known = tracked.get(doc.id)
      if (known && known.path === doc.path && known.buffer === doc.buffer) continue
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
  const stopGit = git.subscribe(() => {
    const next = headKey(git.getSnapshot())
    if (next === key) return
    key = next
    for (const t of tracked.values()) void readHead(t)
  })
  sync()
  return () => {
    stopEditor()
    stopGit()
    for (const t of tracked.values()) t.stop()
    tracked.clear()
  }
}
