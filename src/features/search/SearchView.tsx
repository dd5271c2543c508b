import './search.css'
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react'
import { defaultMaxResults } from '../../sandbox/search/textQuery'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { displayName } from '../../ui/displayName'
import { IconButton } from '../../ui/IconButton'
import { TextWithCode } from '../../ui/TextWithCode'
import { useExternalStore } from '../../ui/useExternalStore'
import type { SearchForm, SearchModel, SearchSnapshot } from './SearchModel'
import { SearchResultTree } from './SearchResultTree'
import { resultSummary, searchRows } from './searchRows'

/** Alt+C, Alt+W, Alt+R: the toggles of the query, as VS Code's (by the physical key, so a Mac's Option works). */
const toggleKeys: Record<string, 'matchCase' | 'wholeWord' | 'isRegex'> = {
  KeyC: 'matchCase',
  KeyW: 'wholeWord',
  KeyR: 'isRegex',
}

/**
 * Find in Files, as VS Code's Search view: the query with its toggles (match case Alt+C, whole
 * word Alt+W, regex Alt+R), a replace box (Ctrl+Shift+H), files to include and exclude, whether
 * ignored and hidden files count; results stream in grouped by file; Escape cancels. Replace All
 * (Ctrl+Alt+Enter) asks first and can be undone.
 */
export function SearchView({
  model,
  canReplace = true,
}: {
  model: SearchModel
  /** Replace is offered (not in a read-only embed). */
  canReplace?: boolean
}) {
  const snap = useExternalStore(model)
  const { form } = snap
  const titleId = useId()
  const errorId = useId()
  const query = useRef<HTMLInputElement>(null)
  const replaceBox = useRef<HTMLInputElement>(null)
  const [confirming, setConfirming] = useState(false)
  const rows = useMemo(() => searchRows(snap.files, snap.collapsed), [snap.files, snap.collapsed])
  const set = (patch: Partial<SearchForm>) => model.setForm(patch)

  useEffect(() => {
    // On mount too: the view may have been asked for before its code arrived.
    if (snap.focus.seq === 0) return
    const target = model.takeFocus()
    if (!target) return
    // A task later: a palette closed by the same key gives the keyboard back in a task of its own.
    setTimeout(() => {
      const box = target === 'replace' ? replaceBox.current : query.current
      box?.focus()
      box?.select()
    })
  }, [model, snap.focus])

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const toggle = toggleKeys[event.code]
    if (toggle && event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault()
      set({ [toggle]: !form[toggle] })
    } else if (event.key === 'Escape' && snap.status === 'searching') {
      event.preventDefault()
      model.cancel()
    } else if (event.key === 'Enter' && event.ctrlKey && event.altKey && replacing) {
      event.preventDefault()
      if (snap.matches > 0) setConfirming(true)
    }
  }
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.ctrlKey && !event.altKey && !event.metaKey) {
      event.preventDefault()
      model.searchNow()
    }
  }
  const replaceWith = form.replace
  const replacing = canReplace && form.replaceOpen

  return (
    <section className="panel search-view" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <div className="panel-header">
        <h2 className="panel-title" id={titleId}>
          Search
        </h2>
        <div className="search-tools">
          {snap.status === 'searching' ? (
            <IconButton icon="search-stop" label="Cancel search (Escape)" onClick={() => model.cancel()} />
          ) : (
            <IconButton
              icon="refresh"
              label="Search again"
              disabled={!form.pattern}
              onClick={() => model.searchNow()}
            />
          )}
          <IconButton
            icon="clear-all"
            label="Clear search results"
            disabled={snap.files.length === 0}
            onClick={() => model.clear()}
          />
        </div>
      </div>
      <div className="search-form">
        {canReplace && (
          <IconButton
            icon={form.replaceOpen ? 'chevron-down' : 'chevron-right'}
            label="Toggle Replace (Ctrl+Shift+H)"
            expanded={form.replaceOpen}
            className="search-replace-toggle"
            onClick={() => set({ replaceOpen: !form.replaceOpen })}
          />
        )}
        <div className="search-boxes">
          <div className="search-box" data-invalid={snap.queryError ? true : undefined}>
            <input
              ref={query}
              type="search"
              aria-label="Search"
              placeholder="Search"
              value={form.pattern}
              spellCheck={false}
              aria-invalid={snap.queryError ? true : undefined}
              aria-describedby={snap.queryError ? errorId : undefined}
              onChange={(e) => set({ pattern: e.target.value })}
              onKeyDown={onEnter}
            />
            <IconButton
              icon="case-sensitive"
              label="Match Case (Alt+C)"
              pressed={form.matchCase}
              onClick={() => set({ matchCase: !form.matchCase })}
            />
            <IconButton
              icon="whole-word"
              label="Match Whole Word (Alt+W)"
              pressed={form.wholeWord}
              onClick={() => set({ wholeWord: !form.wholeWord })}
            />
            <IconButton
              icon="regex"
              label="Use Regular Expression (Alt+R)"
              pressed={form.isRegex}
              onClick={() => set({ isRegex: !form.isRegex })}
            />
          </div>
          {snap.queryError && (
            <pre className="search-error" id={errorId} role="alert">
              {snap.queryError}
            </pre>
          )}
          {replacing && (
            <div className="search-box">
              <input
                ref={replaceBox}
                type="text"
                aria-label="Replace"
                placeholder="Replace"
                value={form.replace}
                spellCheck={false}
                onChange={(e) => set({ replace: e.target.value })}
              />
              <IconButton
                icon="replace-all"
                label="Replace All (Ctrl+Alt+Enter)"
                disabled={snap.matches === 0 || !!snap.busy || snap.status === 'searching'}
                onClick={() => setConfirming(true)}
              />
            </div>
          )}
        </div>
      </div>
      <div className="search-details">
        <IconButton
          icon="ellipsis"
          label="Toggle Search Details"
          expanded={form.detailsOpen}
          onClick={() => set({ detailsOpen: !form.detailsOpen })}
        />
        {form.detailsOpen && (
          <div className="search-globs">
            <label>
              <span>files to include</span>
              <input
                type="text"
                value={form.include}
                placeholder="e.g. *.ts, src (./src from the top)"
                spellCheck={false}
                onChange={(e) => set({ include: e.target.value })}
                onKeyDown={onEnter}
              />
            </label>
            <label>
              <span>files to exclude</span>
              <span className="search-box">
                <input
                  type="text"
                  value={form.exclude}
                  placeholder="e.g. *.min.js, dist"
                  spellCheck={false}
                  onChange={(e) => set({ exclude: e.target.value })}
                  onKeyDown={onEnter}
                />
                <IconButton
                  icon="exclude"
                  label="Use Ignore Files (.gitignore) and Skip the Home's Hidden Folders"
                  pressed={!form.includeIgnored}
                  onClick={() => set({ includeIgnored: !form.includeIgnored })}
                />
              </span>
            </label>
          </div>
        )}
      </div>
      <SearchMessages snap={snap} onUndo={() => void model.undoReplaceAll()} />
      {rows.length > 0 && (
        <SearchResultTree
          rows={rows}
          replacing={replacing}
          replacementOf={(match) => model.replacementPreview(match)}
          onOpen={(file, match, focus) => model.open(file, match, focus)}
          onToggle={(file) => model.toggle(file.path)}
          onReplaceMatch={(file, match) => void model.replaceMatch(file, match)}
          onReplaceFile={(file) => void model.replaceFile(file)}
        />
      )}
      <ConfirmDialog
        open={confirming}
        id={`${titleId}-replace`}
        title="Replace All"
        confirm="Replace"
        onAnswer={(yes) => {
          setConfirming(false)
          if (yes) void model.replaceAll()
        }}
      >
        {confirmText(snap, replaceWith)}
      </ConfirmDialog>
    </section>
  )
}

/** Replace All's question: how many, where, with what, and what happens to open files. */
function confirmText(snap: SearchSnapshot, replaceWith: string): string {
  const files = snap.files.filter((f) => !f.skipped)
  const matches = files.reduce((n, f) => n + f.matches.length, 0)
  return `Replace ${matches.toLocaleString('en')} occurrence${matches === 1 ? '' : 's'} across ${files.length.toLocaleString('en')} file${files.length === 1 ? '' : 's'} with “${displayName(replaceWith)}”? Files open in the editor are changed there, unsaved; the others are written now. Undo Replace All puts them back.`
}

/** What the search and the last replace came to, in words, for everyone (a live region). */
function SearchMessages({ snap, onUndo }: { snap: SearchSnapshot; onUndo(): void }) {
  const { status, outcome, report, busy } = snap
  const summary = resultSummary(snap.matches, snap.files.length)
  let line = ''
  if (status === 'searching') line = snap.matches ? `Searching… ${summary} so far` : 'Searching…'
  else if (status === 'done' && outcome) {
    if (outcome.cancelled) line = `Search cancelled: ${summary}.`
    else if (snap.matches === 0 && snap.files.length === 0)
      line = snap.form.includeIgnored
        ? 'No results found.'
        : 'No results found. What .gitignore and the home’s hidden folders leave out was not searched.'
    else line = `${summary}.`
  }
  return (
    <div className="search-messages">
      <p className="search-status" role="status">
        {busy === 'replacing' ? 'Replacing…' : busy === 'undoing' ? 'Undoing Replace All…' : line}
      </p>
      {status === 'done' && outcome?.limitHit && (
        <p className="search-note-line">
          Only the first {defaultMaxResults.toLocaleString('en')} results are shown: there are more. Refine
          the search to narrow them down.
        </p>
      )}
      {outcome?.engine === 'grep' && (
        <p className="search-note-line">
          <TextWithCode text="Search is slower without ripgrep; add it with `sudo apt-get install ripgrep` (or in your E2B template)." />
        </p>
      )}
      {outcome && outcome.warnings.length > 0 && (
        <p className="search-note-line" title={outcome.warnings.join('\n')}>
          Some files could not be read: {displayName(outcome.warnings[0] ?? '')}
          {outcome.warnings.length > 1 ? ` and ${outcome.warnings.length - 1} more` : ''}
        </p>
      )}
      {snap.error && (
        <p className="search-error-line" role="alert">
          Search failed: {snap.error}
        </p>
      )}
      {report && <ReplaceReportView report={report} onUndo={onUndo} />}
    </div>
  )
}

function ReplaceReportView({
  report,
  onUndo,
}: {
  report: NonNullable<SearchSnapshot['report']>
  onUndo(): void
}) {
  const files = `${report.files} file${report.files === 1 ? '' : 's'}`
  return (
    <div className="search-report" role="status">
      <p>
        {report.kind === 'replaced'
          ? `Replaced ${report.matches} occurrence${report.matches === 1 ? '' : 's'} in ${files}.`
          : `Restored ${files}.`}
        {report.canUndo && (
          <button type="button" className="search-undo" onClick={onUndo}>
            Undo Replace All
          </button>
        )}
      </p>
      {report.skipped.length > 0 && (
        <>
          <p>
            Skipped {report.skipped.length} file{report.skipped.length === 1 ? '' : 's'}:
          </p>
          <ul className="search-skipped-list" aria-label="Skipped files">
            {report.skipped.map((s) => (
              <li key={s.path}>
                <span className="search-skipped-path">{displayName(s.path)}</span> ({s.reason})
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
