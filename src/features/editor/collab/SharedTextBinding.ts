import * as monaco from 'monaco-editor/editor/editor.api'
import * as Y from 'yjs'
import type { Person, Presence } from '../../../sandbox/collab/Presence'
import type { SharedText } from '../../../sandbox/collab/SharedDocuments'
import { offsetOf, remoteCursors } from './remoteCursors'

/**
 * Keeps a Monaco model and a shared Yjs text the same, both ways, and gives the model an undo
 * of its own person's edits only.
 *
 * Written here rather than taken from y-monaco (0.1.6, the binding Yjs lists): that one imports a
 * path Monaco 0.57's exports no longer offer, leaves Monaco's undo in charge (which, after
 * others' edits, undoes theirs or lands in the wrong place), and keeps listeners on editors for
 * their whole life. This one is small, owns its listeners, and replaces undo as below.
 *
 * Others' edits reach the model by `applyEdits`, outside Monaco's undo stack; Undo and Redo go to
 * a Y.UndoManager that tracks this page's edits alone. Every way Monaco undoes (the keys, the
 * menus, the palette) ends in the model's own `undo()`/`redo()`, so those two are replaced on
 * this model while it is shared.
 */
export class SharedTextBinding {
  readonly undoManager: Y.UndoManager
  private applyingRemote = false
  private applyingLocal = false
  private readonly subscriptions: monaco.IDisposable[] = []
  private readonly stopPresence: () => void
  private readonly editors = new Map<monaco.editor.ICodeEditor, monaco.IDisposable[]>()
  private readonly cursors: ReturnType<typeof remoteCursors>
  private othersKey = ''

  constructor(
    readonly model: monaco.editor.ITextModel,
    readonly shared: SharedText,
    private readonly presence: Presence,
    private readonly leave: () => void,
    /** Called when the people who have this file open change (not when they merely move). */
    private readonly othersChanged: () => void = () => {},
  ) {
    this.undoManager = new Y.UndoManager(shared.text, { trackedOrigins: new Set([this]) })
    this.takeShared()
    shared.text.observe(this.onShared)
    this.subscriptions.push(
      model.onDidChangeContent((event) => {
        if (this.applyingRemote) return
        this.applyingLocal = true
        try {
          shared.doc.transact(() => {
            // From the end backwards, so each change's offset is still right when it is applied.
            for (const change of [...event.changes].sort((a, b) => b.rangeOffset - a.rangeOffset)) {
              if (change.rangeLength) shared.text.delete(change.rangeOffset, change.rangeLength)
              if (change.text) shared.text.insert(change.rangeOffset, change.text)
            }
          }, this)
        } finally {
          this.applyingLocal = false
        }
      }),
    )
    const original = { undo: model.undo, redo: model.redo, canUndo: model.canUndo, canRedo: model.canRedo }
    model.undo = () => {
      this.undoManager.undo()
    }
    model.redo = () => {
      this.undoManager.redo()
    }
    model.canUndo = () => this.undoManager.canUndo()
    model.canRedo = () => this.undoManager.canRedo()
    this.subscriptions.push({ dispose: () => Object.assign(model, original) })
    this.cursors = remoteCursors(model, shared)
    this.stopPresence = presence.onChange(() => this.showOthers())
    this.showOthers()
  }

  /** The people who have this file open, with their colours, for the tab and the status bar. */
  others(): Person[] {
    return this.presence.others().filter((p) => p.docs.includes(this.shared.path))
  }

  /** Where a cursor given as relative positions (another person's) is now, in lines and columns from 1. */
  placeOf(anchor: unknown, head: unknown): monaco.IRange | undefined {
    const from = offsetOf(this.shared, anchor)
    const to = offsetOf(this.shared, head)
    if (from === undefined || to === undefined) return undefined
    return monaco.Range.fromPositions(this.model.getPositionAt(from), this.model.getPositionAt(to))
  }

  /** Shows this model in `editor`: says where this person's cursor is while it does. */
  attach(editor: monaco.editor.ICodeEditor): () => void {
    const say = () => {
      const selection = editor.getSelection()
      if (!selection || editor.getModel() !== this.model) return
      const at = (position: monaco.IPosition) =>
        Y.relativePositionToJSON(
          Y.createRelativePositionFromTypeIndex(this.shared.text, this.model.getOffsetAt(position)),
        )
      this.presence.setCursor({
        path: this.shared.path,
        anchor: at(selection.getSelectionStart()),
        head: at(selection.getPosition()),
      })
    }
    const listeners = [editor.onDidChangeCursorSelection(say)]
    this.editors.set(editor, listeners)
    say()
    return () => {
      for (const listener of listeners) listener.dispose()
      this.editors.delete(editor)
    }
  }

  dispose(): void {
    this.shared.text.unobserve(this.onShared)
    for (const subscription of this.subscriptions) subscription.dispose()
    for (const listeners of this.editors.values()) for (const listener of listeners) listener.dispose()
    this.editors.clear()
    this.stopPresence()
    this.cursors.dispose()
    this.undoManager.destroy()
    this.leave()
  }

  /** The model takes the shared text as it is now (it was started elsewhere, or from another disk read). */
  private takeShared(): void {
    const text = this.shared.text.toString()
    const current = this.model.getValue()
    if (text === current) return
    this.applyingRemote = true
    try {
      this.model.applyEdits([{ range: this.model.getFullModelRange(), text }])
    } finally {
      this.applyingRemote = false
    }
  }

  /** Others' edits (and this page's undo) reach the model. */
  private readonly onShared = (event: Y.YTextEvent, transaction: Y.Transaction): void => {
    if (this.applyingLocal) return
    const edits: monaco.editor.IIdentifiedSingleEditOperation[] = []
    // `index` walks the text before the change (what Monaco's ranges refer to), `after` the text after it.
    let index = 0
    let after = 0
    let lastChange = 0
    for (const op of event.delta) {
      if (op.retain !== undefined) {
        index += op.retain
        after += op.retain
      } else if (typeof op.insert === 'string') {
        const at = this.model.getPositionAt(index)
        edits.push({
          range: new monaco.Range(at.lineNumber, at.column, at.lineNumber, at.column),
          text: op.insert,
        })
        after += op.insert.length
        lastChange = after
      } else if (op.delete !== undefined) {
        const from = this.model.getPositionAt(index)
        const to = this.model.getPositionAt(index + op.delete)
        edits.push({
          range: new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column),
          text: '',
        })
        index += op.delete
        lastChange = after
      }
    }
    this.applyingRemote = true
    try {
      this.model.applyEdits(edits)
    } finally {
      this.applyingRemote = false
    }
    if (transaction.origin === this.undoManager) this.revealUndone(lastChange)
    this.cursors.render(this.others())
  }

  /** After an undo or redo, the cursor goes to where it changed, as Monaco's own undo puts it. */
  private revealUndone(offset: number): void {
    const position = this.model.getPositionAt(offset)
    for (const editor of this.editors.keys()) {
      if (editor.getModel() !== this.model) continue
      editor.setPosition(position)
      editor.revealPositionInCenterIfOutsideViewport(position)
    }
  }

  private showOthers(): void {
    const others = this.others()
    this.cursors.render(others)
    const key = others.map((p) => `${p.page} ${p.name} ${p.color}`).join('\n')
    if (key === this.othersKey) return
    this.othersKey = key
    this.othersChanged()
  }
}
