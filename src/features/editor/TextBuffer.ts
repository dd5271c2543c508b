import * as monaco from 'monaco-editor/editor/editor.api'
import { Subscribers } from '../../common/Subscribers'
import type { Presence } from '../../sandbox/collab/Presence'
import type { SharedText } from '../../sandbox/collab/SharedDocuments'
import { SharedTextBinding } from './collab/SharedTextBinding'
import type { EditorRange } from './EditorManager'
import { languageFor } from './languageFor'
import { modelScheme } from './modelScheme'
import { baseName } from './movedPath'
import { mergeEdits } from './threeWayMerge'

let nextModel = 1

/** The language Monaco should use for `path`, judged by its name and first line. */
function languageOf(path: string, text: string): string {
  const firstLine = text.slice(0, Math.min(text.length, 200)).split('\n', 1)[0] ?? ''
  return languageFor(baseName(path), firstLine, monaco.languages.getLanguages())
}

/**
 * The text of one open file: a Monaco model plus what the editor needs around it (whether it
 * differs from what is on disk, the view state to restore when its tab comes back). Lives in
 * Monaco's lazy chunk; everything else refers to it by type only.
 */
export class TextBuffer {
  readonly model: monaco.editor.ITextModel
  /** Cursor and scroll position while another tab is shown. */
  viewState: monaco.editor.ICodeEditorViewState | null = null
  private savedVersion: number
  /** While shared: the text the disk holds (others' edits make "unsaved" a matter of text, not of versions). */
  private savedText: string | undefined
  private binding: SharedTextBinding | undefined
  private wasDirty = false
  private readonly subscribers = new Subscribers()
  private readonly subscription: monaco.IDisposable

  constructor(
    text: string,
    path: string,
    readonly reduced: boolean,
  ) {
    // Model URIs never change, so they carry a number, not the path (an open file can be renamed).
    const uri = monaco.Uri.from({ scheme: modelScheme, path: `/${nextModel++}/${baseName(path)}` })
    this.model = monaco.editor.createModel(text, reduced ? 'plaintext' : languageOf(path, text), uri)
    this.savedVersion = this.model.getAlternativeVersionId()
    this.subscription = this.model.onDidChangeContent(() => this.notifyIfDirtyChanged())
  }

  /** Differs from the text last loaded from or saved to disk (undoing back to it makes it clean). */
  get dirty(): boolean {
    if (this.savedText !== undefined)
      return this.model.getValueLength() !== this.savedText.length || this.model.getValue() !== this.savedText
    return this.model.getAlternativeVersionId() !== this.savedVersion
  }

  /** The shared text it is bound to, while the file is co-edited. */
  get sharing(): SharedText | undefined {
    return this.binding?.shared
  }

  /**
   * Binds the text to others' copies of it: from now on it holds the shared text (which may
   * already differ from the disk's, `diskText`), and Undo undoes this person's edits alone.
   * Returns false, and stays unshared, where the model could not hold the disk's text exactly
   * (mixed line endings, which Monaco makes one).
   */
  share(shared: SharedText, presence: Presence, diskText: string, leave: () => void): boolean {
    if (this.binding || this.model.isDisposed() || this.model.getValue() !== diskText) return false
    this.savedText = diskText
    this.binding = new SharedTextBinding(this.model, shared, presence, leave, () => this.subscribers.notify())
    this.notifyIfDirtyChanged()
    return true
  }

  /** The disk now holds `text` (another page saved, or the leader takes a change in): only "unsaved" changes. */
  adoptDisk(text: string): void {
    if (this.savedText === undefined) return
    this.savedText = text
    this.notifyIfDirtyChanged()
  }

  /**
   * Takes the disk's new `text` into the edited shared text: a three-way merge against the text
   * the disk held before, so an outside change (the terminal, git) and the unsaved edits both
   * stay, and only the lines the outside changed are touched. False, with nothing changed, where
   * both changed the same lines, or where the text is not shared.
   */
  mergeDisk(text: string): boolean {
    if (this.savedText === undefined) return false
    const edits = mergeEdits(this.savedText, this.model.getValue(), text)
    if (!edits) return false
    if (edits.length)
      this.model.pushEditOperations(
        null,
        edits.map(({ start, end, text: inserted }) => ({
          range: monaco.Range.fromPositions(this.model.getPositionAt(start), this.model.getPositionAt(end)),
          text: inserted,
        })),
        () => null,
      )
    this.savedText = text
    this.notifyIfDirtyChanged()
    return true
  }

  /** The others who have this file open too (co-editing), by name and colour. */
  others(): { name: string; color: string }[] {
    return this.binding?.others() ?? []
  }

  /** Where another person's cursor is in this shared text, if it is (to follow them). */
  placeOf(cursor: { anchor: unknown; head: unknown }): EditorRange | undefined {
    const range = this.binding?.placeOf(cursor.anchor, cursor.head)
    return (
      range && {
        startLine: range.startLineNumber,
        startColumn: range.startColumn,
        endLine: range.endLineNumber,
        endColumn: range.endColumn,
      }
    )
  }

  /** Shows the buffer in `editor`; returns how to stop (the others see where this person's cursor is meanwhile). */
  attachEditor(editor: monaco.editor.ICodeEditor): () => void {
    return this.binding?.attach(editor) ?? (() => {})
  }

  /** The language Monaco uses for it. */
  get languageId(): string {
    return this.model.getLanguageId()
  }

  /** A marker of the current text, for `markSaved` once that text reached the disk. */
  versionId(): number {
    return this.model.getAlternativeVersionId()
  }

  getText(): string {
    return this.model.getValue()
  }

  /** The text as of `versionId`, which was `text`, is what the disk holds now. */
  markSaved(versionId = this.model.getAlternativeVersionId(), text?: string): void {
    this.savedVersion = versionId
    if (this.savedText !== undefined) this.savedText = text ?? this.model.getValue()
    this.notifyIfDirtyChanged()
  }

  /** Replaces the text with the disk's and marks it saved (Undo brings back what was there). */
  reload(text: string): void {
    this.edit(text)
    this.markSaved()
  }

  /**
   * Replaces the text by one minimal edit (the changed middle), so cursors before or after the
   * change stay where they were, and one undo step, so Undo brings back what was there before.
   * Line endings follow the new text.
   */
  edit(text: string): void {
    const crlf = text.includes('\r\n')
    if (crlf !== (this.model.getEOL() === '\r\n')) {
      this.model.pushEOL(crlf ? monaco.editor.EndOfLineSequence.CRLF : monaco.editor.EndOfLineSequence.LF)
    }
    const next = text.replace(/\r\n|\r|\n/g, this.model.getEOL())
    const current = this.model.getValue()
    if (current === next) return
    let start = 0
    const shortest = Math.min(current.length, next.length)
    while (start < shortest && current.charCodeAt(start) === next.charCodeAt(start)) start++
    let end = 0
    while (
      end < shortest - start &&
      current.charCodeAt(current.length - 1 - end) === next.charCodeAt(next.length - 1 - end)
    )
      end++
    const from = this.model.getPositionAt(start)
    const to = this.model.getPositionAt(current.length - end)
    this.model.pushStackElement()
    this.model.pushEditOperations(
      null,
      [
        {
          range: new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column),
          text: next.slice(start, next.length - end),
        },
      ],
      () => null,
    )
    this.model.pushStackElement()
  }

  /** Picks the language again after a rename. */
  renamed(path: string): void {
    if (!this.reduced)
      monaco.editor.setModelLanguage(this.model, languageOf(path, this.model.getLineContent(1)))
  }

  /** Called when `dirty` flips, or when the others who have it open change. */
  onDirtyChange(listener: () => void): () => void {
    return this.subscribers.add(listener)
  }

  /** Called on every change of the text. */
  onChange(listener: () => void): () => void {
    const subscription = this.model.onDidChangeContent(listener)
    return () => subscription.dispose()
  }

  dispose(): void {
    this.subscribers.clear()
    this.subscription.dispose()
    this.binding?.dispose()
    this.binding = undefined
    this.model.dispose()
  }

  private notifyIfDirtyChanged(): void {
    const dirty = this.dirty
    if (this.binding) this.binding.shared.unsaved = dirty
    if (dirty === this.wasDirty) return
    this.wasDirty = dirty
    this.subscribers.notify()
  }
}
