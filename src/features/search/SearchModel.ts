import { Subscribers } from '../../common/Subscribers'
import type { ReplacedFile, ReplaceOutcome, SkippedFile } from '../../sandbox/search/replaceInFiles'
import { replacementEdits, type TextEdit } from '../../sandbox/search/replaceInText'
import { type SearchOutcome, SearchQueryError, type SearchRun } from '../../sandbox/search/TextSearch'
import { replacementFor } from '../../sandbox/search/textMatcher'
import {
  type FileMatches,
  type SearchMatch,
  splitGlobs,
  type TextQuery,
} from '../../sandbox/search/textQuery'
import { shiftMatches } from './shiftMatches'

/** What the view's boxes and toggles hold. */
export interface SearchForm {
  pattern: string
  isRegex: boolean
  matchCase: boolean
  wholeWord: boolean
  /** "files to include" and "files to exclude", as typed (comma-separated globs). */
  include: string
  exclude: string
  /** Search what .gitignore and the home's dot-folders leave out too. */
  includeIgnored: boolean
  replace: string
  replaceOpen: boolean
  /** The include and exclude boxes are shown. */
  detailsOpen: boolean
}

/** A file of the results, by absolute path, with the path shown (relative to the workspace). */
export interface ResultFile extends FileMatches {
  label: string
  /** A replace left it as it was: why. */
  skipped?: string
}

/** What a Replace All (or its undo) did, for the view to say. */
export interface ReplaceReport {
  kind: 'replaced' | 'undone'
  files: number
  matches: number
  skipped: SkippedFile[]
  /** An Undo Replace All is on offer. */
  canUndo: boolean
}

export interface SearchSnapshot {
  form: SearchForm
  status: 'idle' | 'searching' | 'done' | 'failed'
  /** What is wrong with the query itself (an invalid regex), shown by its box. */
  queryError: string | undefined
  /** Why the search failed otherwise (the sandbox is not connected). */
  error: string | undefined
  files: readonly ResultFile[]
  matches: number
  outcome: SearchOutcome | undefined
  collapsed: ReadonlySet<string>
  busy: 'replacing' | 'undoing' | undefined
  report: ReplaceReport | undefined
  /** Bumped when the view should take the keyboard (into the query box, or the replace box). */
  focus: { seq: number; target: 'query' | 'replace' }
}

/** A place in a file in the editor's terms: lines and columns from 1. */
export interface SearchRange {
  startLine: number
  startColumn: number
  endLine: number
  endColumn: number
}

/** A replace made in an open file's buffer, to undo it. */
export interface BufferEdit {
  path: string
}

/** What the search needs of the sandbox: the domain layer's search and replace. */
export interface SearchBackend {
  search(query: TextQuery, onResults: (files: FileMatches[]) => void): SearchRun
  /** The searched folder (the home). */
  folder(): Promise<string>
  replaceOnDisk(
    targets: readonly FileMatches[],
    replacementFor: (matched: string) => string,
  ): Promise<ReplaceOutcome>
  undoOnDisk(replaced: readonly ReplacedFile[]): Promise<{ restored: string[]; skipped: SkippedFile[] }>
}

/** What the search needs of the editor: open files are replaced in their buffers (they become unsaved). */
export interface SearchEditor {
  /** The text of a file open in the editor, or undefined when it is not open. */
  bufferText(path: string): string | undefined
  /** Applies edits (offsets into `bufferText`) to an open file as one undoable step. */
  editBuffer(path: string, edits: readonly TextEdit[]): BufferEdit | undefined
  /** Undoes such an edit if the buffer still holds what it left; false otherwise. */
  undoBufferEdit(edit: BufferEdit): boolean
  /** Opens a file at a place; `focus` gives the editor the keyboard. */
  open(path: string, at: SearchRange, focus: boolean): void
}

/** As VS Code waits while one types before searching. */
const typingDelayMs = 300

const emptyForm: SearchForm = {
  pattern: '',
  isRegex: false,
  matchCase: false,
  wholeWord: false,
  include: '',
  exclude: '',
  includeIgnored: false,
  replace: '',
  replaceOpen: false,
  detailsOpen: false,
}

/** The fields whose change makes a new search (the replace text and the boxes' visibility do not). */
const queryFields: readonly (keyof SearchForm)[] = [
  'pattern',
  'isRegex',
  'matchCase',
  'wholeWord',
  'include',
  'exclude',
  'includeIgnored',
]

function byPath(a: ResultFile, b: ResultFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

/**
 * The Search view's state and actions: the form, a search as one types (300 ms after the last key,
 * or at once on Enter) whose results stream in grouped by file, a cancel, and Replace in one match,
 * one file or all (open files in their buffers, the others on disk through the domain layer's
 * conflict-safe replace), with an undo of Replace All.
 */
export class SearchModel {
  private snapshot: SearchSnapshot = {
    form: emptyForm,
    status: 'idle',
    queryError: undefined,
    error: undefined,
    files: [],
    matches: 0,
    outcome: undefined,
    collapsed: new Set(),
    busy: undefined,
    report: undefined,
    focus: { seq: 0, target: 'query' },
  }
  private readonly subscribers = new Subscribers()
  private timer: ReturnType<typeof setTimeout> | undefined
  private run: SearchRun | undefined
  private generation = 0
  /** The query the results are for (the form may have changed since). */
  private searched: TextQuery | undefined
  private undo: { disk: ReplacedFile[]; buffers: BufferEdit[] } | undefined
  private focusTaken = 0
  private disposed = false

  constructor(
    private readonly backend: SearchBackend,
    private readonly editor: SearchEditor,
  ) {}

  subscribe = this.subscribers.add

  getSnapshot = (): SearchSnapshot => this.snapshot

  /** The query the shown results are for. */
  get resultsQuery(): TextQuery | undefined {
    return this.searched
  }

  /** Changes the form; a change to the query searches again once typing pauses. */
  setForm(patch: Partial<SearchForm>): void {
    const form = { ...this.snapshot.form, ...patch }
    const queryChanged = queryFields.some((field) => form[field] !== this.snapshot.form[field])
    this.update({ form })
    if (!queryChanged) return
    clearTimeout(this.timer)
    if (!form.pattern) {
      this.clear()
      return
    }
    this.timer = setTimeout(() => this.searchNow(), typingDelayMs)
  }

  /** Asks the view to take the keyboard: the query box, or the replace box (opened). */
  reveal(target: 'query' | 'replace' = 'query'): void {
    const form = target === 'replace' ? { ...this.snapshot.form, replaceOpen: true } : this.snapshot.form
    this.update({ form, focus: { seq: this.snapshot.focus.seq + 1, target } })
  }

  /** Whether the view should take the keyboard now, and where: once for each `reveal`. */
  takeFocus(): 'query' | 'replace' | undefined {
    if (this.focusTaken === this.snapshot.focus.seq) return undefined
    this.focusTaken = this.snapshot.focus.seq
    return this.snapshot.focus.target
  }

  /** The form's query, as the domain layer takes it. */
  query(form = this.snapshot.form): TextQuery {
    return {
      pattern: form.pattern,
      isRegex: form.isRegex,
      matchCase: form.matchCase,
      wholeWord: form.wholeWord,
      include: splitGlobs(form.include),
      exclude: splitGlobs(form.exclude),
      includeIgnored: form.includeIgnored,
    }
  }

  /** Searches now (Enter), cancelling the search under way; what a replace did stays said with `keepReport`. */
  searchNow({ keepReport = false } = {}): void {
    clearTimeout(this.timer)
    this.run?.cancel()
    const query = this.query()
    if (!query.pattern) {
      this.clear()
      return
    }
    const generation = ++this.generation
    this.searched = query
    this.undo = undefined
    this.update({
      status: 'searching',
      queryError: undefined,
      error: undefined,
      files: [],
      matches: 0,
      outcome: undefined,
      report: keepReport ? this.snapshot.report : undefined,
    })
    void this.backend.folder().then(
      (root) => {
        if (generation !== this.generation || this.disposed) return
        const label = (path: string) => (path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path)
        const run = this.backend.search(query, (batch) => {
          if (generation !== this.generation) return
          const files = [...this.snapshot.files, ...batch.map((f) => ({ ...f, label: label(f.path) }))]
          files.sort(byPath)
          const matches = this.snapshot.matches + batch.reduce((n, f) => n + f.matches.length, 0)
          this.update({ files, matches })
        })
        this.run = run
        run.done.then(
          (outcome) => {
            if (generation === this.generation) this.update({ status: 'done', outcome })
          },
          (err: unknown) => this.failed(generation, err),
        )
      },
      (err: unknown) => this.failed(generation, err),
    )
  }

  private failed(generation: number, err: unknown): void {
    if (generation !== this.generation) return
    const isQuery = err instanceof SearchQueryError
    this.update({
      status: 'failed',
      queryError: isQuery ? messageOf(err) : undefined,
      error: isQuery ? undefined : messageOf(err),
    })
  }

  /** Stops the search under way (Escape): its process is killed, what came so far stays. */
  cancel(): void {
    clearTimeout(this.timer)
    if (this.snapshot.status !== 'searching') return
    this.run?.cancel()
  }

  /** Clears the results (and the search under way). */
  clear(): void {
    clearTimeout(this.timer)
    this.run?.cancel()
    this.generation++
    this.searched = undefined
    this.update({
      status: 'idle',
      files: [],
      matches: 0,
      outcome: undefined,
      queryError: undefined,
      error: undefined,
      report: undefined,
    })
  }

  /** Folds or unfolds a file's matches. */
  toggle(path: string): void {
    const collapsed = new Set(this.snapshot.collapsed)
    if (!collapsed.delete(path)) collapsed.add(path)
    this.update({ collapsed })
  }

  /** Opens a match's file at the match; `focus` gives the editor the keyboard. */
  open(file: ResultFile, match: SearchMatch, focus = true): void {
    this.editor.open(
      file.path,
      { startLine: match.line, startColumn: match.start + 1, endLine: match.line, endColumn: match.end + 1 },
      focus,
    )
  }

  /** What a match becomes with the replace text, for the preview (the text shown, clipped as shown). */
  replacementPreview(match: SearchMatch): string {
    return this.searched ? replacementFor(match.preview.match, this.searched, this.snapshot.form.replace) : ''
  }

  /** Replaces one match. */
  replaceMatch(file: ResultFile, match: SearchMatch): Promise<void> {
    return this.replace([{ ...file, matches: [match] }], false)
  }

  /** Replaces every match of one file. */
  replaceFile(file: ResultFile): Promise<void> {
    return this.replace([file], false)
  }

  /** Replaces every match of every file (the view asks first); it can be undone. */
  replaceAll(): Promise<void> {
    return this.replace(
      this.snapshot.files.filter((f) => !f.skipped),
      true,
    )
  }

  /** Puts back every file Replace All changed that still holds what it wrote; then searches again. */
  async undoReplaceAll(): Promise<void> {
    const undo = this.undo
    if (!undo || this.snapshot.busy) return
    this.undo = undefined
    this.update({ busy: 'undoing' })
    const skipped: SkippedFile[] = []
    let restored = 0
    for (const edit of undo.buffers) {
      if (this.editor.undoBufferEdit(edit)) restored++
      else skipped.push({ path: edit.path, reason: 'it changed since the replace' })
    }
    try {
      const disk = await this.backend.undoOnDisk(undo.disk)
      restored += disk.restored.length
      skipped.push(...disk.skipped)
    } catch (err) {
      skipped.push(...undo.disk.map((f) => ({ path: f.path, reason: messageOf(err) })))
    }
    this.update({
      busy: undefined,
      report: { kind: 'undone', files: restored, matches: 0, skipped, canUndo: false },
    })
    if (this.searched) this.searchNow({ keepReport: true })
  }

  dispose(): void {
    this.disposed = true
    clearTimeout(this.timer)
    this.run?.cancel()
    this.subscribers.clear()
  }

  private async replace(targets: readonly ResultFile[], all: boolean): Promise<void> {
    const query = this.searched
    if (!query || this.snapshot.busy || targets.length === 0) return
    const replaceWith = this.snapshot.form.replace
    const fn = (matched: string) => replacementFor(matched, query, replaceWith)
    this.update({ busy: 'replacing' })
    const skipped: SkippedFile[] = []
    const buffers: BufferEdit[] = []
    /** Each replaced file's text before and after, and the edits between: where its other matches went. */
    const changed = new Map<
      string,
      { before: string; edits: readonly TextEdit[]; after: string; size?: number }
    >()
    let matches = 0
    const onDisk: ResultFile[] = []
    for (const target of targets) {
      const text = this.editor.bufferText(target.path)
      if (text === undefined) {
        onDisk.push(target)
        continue
      }
      const found = replacementEdits(text, target.matches, fn)
      const edit = 'reason' in found ? undefined : this.editor.editBuffer(target.path, found.edits)
      if (!edit || 'reason' in found) {
        skipped.push({
          path: target.path,
          reason: 'reason' in found ? found.reason : 'it could not be edited',
        })
        continue
      }
      buffers.push(edit)
      matches += found.edits.length
      changed.set(target.path, {
        before: text,
        edits: found.edits,
        after: this.editor.bufferText(target.path) ?? '',
      })
    }
    let disk: ReplaceOutcome = { replaced: [], skipped: [] }
    try {
      disk = await this.backend.replaceOnDisk(onDisk, fn)
    } catch (err) {
      disk.skipped = onDisk.map((f) => ({ path: f.path, reason: messageOf(err) }))
    }
    const decoder = new TextDecoder()
    for (const file of disk.replaced) {
      matches += file.count
      const before = decoder.decode(file.before)
      const target = onDisk.find((t) => t.path === file.path)
      const found = target ? replacementEdits(before, target.matches, fn) : { edits: [] }
      changed.set(file.path, {
        before,
        edits: 'reason' in found ? [] : found.edits,
        after: decoder.decode(file.after),
        size: file.after.length,
      })
    }
    skipped.push(...disk.skipped)
    if (all) this.undo = { disk: disk.replaced, buffers }
    const files = this.afterReplace(targets, changed, skipped)
    const report: ReplaceReport | undefined =
      all || skipped.length
        ? { kind: 'replaced', files: changed.size, matches, skipped, canUndo: all && changed.size > 0 }
        : this.snapshot.report
    this.update({
      busy: undefined,
      files,
      matches: files.reduce((n, f) => n + f.matches.length, 0),
      report,
    })
  }

  /**
   * The results after a replace: a replaced match goes; a file's other matches move to where they
   * are in its new text; a skipped file stays, saying why.
   */
  private afterReplace(
    targets: readonly ResultFile[],
    changed: ReadonlyMap<
      string,
      { before: string; edits: readonly TextEdit[]; after: string; size?: number }
    >,
    skipped: readonly SkippedFile[],
  ): ResultFile[] {
    const replacedMatches = new Map(targets.map((t) => [t.path, new Set(t.matches)]))
    const reasons = new Map(skipped.map((s) => [s.path, s.reason]))
    const files: ResultFile[] = []
    for (const file of this.snapshot.files) {
      const reason = reasons.get(file.path)
      const change = changed.get(file.path)
      if (reason) files.push({ ...file, skipped: reason })
      else if (!change) files.push(file)
      else {
        const gone = replacedMatches.get(file.path)
        const rest = file.matches.filter((m) => !gone?.has(m))
        if (rest.length === 0) continue
        const moved = shiftMatches(change.before, change.edits, rest, change.after)
        files.push({ ...file, matches: moved, ...(change.size === undefined ? {} : { size: change.size }) })
      }
    }
    return files
  }

  private update(patch: Partial<SearchSnapshot>): void {
    if (this.disposed) return
    this.snapshot = { ...this.snapshot, ...patch }
    this.subscribers.notify()
  }
}
