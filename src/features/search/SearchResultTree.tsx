import { useVirtualizer } from '@tanstack/react-virtual'
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import type { SearchMatch } from '../../sandbox/search/textQuery'
import { displayName } from '../../ui/displayName'
import { Icon } from '../../ui/Icon'
import { IconButton } from '../../ui/IconButton'
import { treeKey } from '../../ui/treeKeys'
import { touchFirst, useMediaQuery } from '../../ui/useMediaQuery'
import type { ResultFile } from './SearchModel'
import type { SearchRow } from './searchRows'

/** Rows a mouse points at, and rows a finger taps (at least 32 px), as in the explorer. */
const rowHeights = { pointer: 22, touch: 32 }

/** A file's name and folder, as the row shows them. */
function nameAndFolder(label: string): { name: string; folder: string } {
  const slash = label.lastIndexOf('/')
  return slash === -1
    ? { name: label, folder: '' }
    : { name: label.slice(slash + 1), folder: label.slice(0, slash) }
}

function fileLabel(file: ResultFile): string {
  const n = file.matches.length
  const state = file.skipped ? `, skipped: ${file.skipped}` : file.unsaved ? ', unsaved' : ''
  return `${displayName(file.label)}, ${n} result${n === 1 ? '' : 's'}${state}`
}

export interface SearchResultTreeProps {
  rows: readonly SearchRow[]
  /** The replace box is open: each match shows what it becomes, and rows offer to replace. */
  replacing: boolean
  /** What a match becomes (its preview's text replaced). */
  replacementOf(match: SearchMatch): string
  /** Opens a match; `focus` gives the editor the keyboard (Enter, a double click), a click does not. */
  onOpen(file: ResultFile, match: SearchMatch, focus: boolean): void
  onToggle(file: ResultFile): void
  onReplaceMatch(file: ResultFile, match: SearchMatch): void
  onReplaceFile(file: ResultFile): void
}

/**
 * The results as an ARIA tree of files and their matches, virtualized as the explorer is (up to
 * 20,000 matches): one tab stop with aria-activedescendant; arrows, Home, End, Page Up/Down move,
 * Right and Left unfold and fold, Enter opens a match (the editor takes the keyboard) or folds a
 * file, Ctrl+Shift+1 replaces the match or the file's matches (as VS Code). Names and lines are
 * text: a hostile name shows its control characters as symbols.
 */
export function SearchResultTree({
  rows,
  replacing,
  replacementOf,
  onOpen,
  onToggle,
  onReplaceMatch,
  onReplaceFile,
}: SearchResultTreeProps) {
  const scroller = useRef<HTMLDivElement>(null)
  const rowId = useId()
  const [active, setActive] = useState(0)
  const rowHeight = useMediaQuery(touchFirst) ? rowHeights.touch : rowHeights.pointer
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 16,
  })
  const index = Math.max(0, Math.min(active, rows.length - 1))
  const current = rows[index]
  // biome-ignore lint/correctness/useExhaustiveDependencies: rows are placed again at a new height
  useEffect(() => virtualizer.measure(), [rowHeight])

  const moveTo = (next: number) => {
    const to = Math.max(0, Math.min(rows.length - 1, next))
    setActive(to)
    virtualizer.scrollToIndex(to)
  }
  const fileRowOf = (at: number) => {
    const file = rows[at]?.file
    return rows.findIndex((r) => r.kind === 'file' && r.file === file)
  }

  const actionFor = (event: KeyboardEvent, row: SearchRow): (() => void) | undefined => {
    if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.code === 'Digit1')
      return replacing
        ? () => (row.kind === 'match' ? onReplaceMatch(row.file, row.match) : onReplaceFile(row.file))
        : undefined
    if (event.ctrlKey || event.metaKey || event.altKey) return undefined
    return treeKey(
      event.key,
      {
        index,
        count: rows.length,
        expanded: row.kind === 'file' ? row.expanded : undefined,
        parent: () => fileRowOf(index),
      },
      {
        moveTo,
        toggle: () => onToggle(row.file),
        activate: () => (row.kind === 'file' ? onToggle(row.file) : onOpen(row.file, row.match, true)),
      },
    )
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action = current && actionFor(event, current)
    if (!action) return
    event.preventDefault()
    action()
  }

  return (
    <div
      ref={scroller}
      className="tree-scroller search-tree"
      role="tree"
      aria-label="Search results"
      tabIndex={0}
      aria-activedescendant={current ? `${rowId}-${index}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index] as SearchRow
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the tree owns the keyboard (aria-activedescendant)
            <div
              key={row.key}
              id={`${rowId}-${item.index}`}
              role="treeitem"
              tabIndex={-1}
              aria-level={row.kind === 'match' ? 2 : 1}
              aria-setsize={row.setsize}
              aria-posinset={row.posinset}
              aria-selected={item.index === index}
              aria-expanded={row.kind === 'file' ? row.expanded : undefined}
              aria-label={
                row.kind === 'match' ? matchLabel(row.match, replacing, replacementOf) : fileLabel(row.file)
              }
              title={row.kind === 'file' ? displayName(row.file.path) : undefined}
              className="tree-row search-row"
              data-active={item.index === index}
              style={{
                transform: `translateY(${item.start}px)`,
                height: rowHeight,
                paddingLeft: row.kind === 'match' ? 26 : 6,
              }}
              onClick={() => {
                setActive(item.index)
                if (row.kind === 'file') onToggle(row.file)
                else onOpen(row.file, row.match, false)
              }}
              onDoubleClick={() => {
                if (row.kind === 'match') onOpen(row.file, row.match, true)
              }}
            >
              {row.kind === 'file' ? (
                <FileRow row={row} replacing={replacing} onReplaceFile={onReplaceFile} />
              ) : (
                <MatchRow
                  file={row.file}
                  match={row.match}
                  replacing={replacing}
                  replacement={replacing ? replacementOf(row.match) : ''}
                  onReplaceMatch={onReplaceMatch}
                />
              )}
            </div>
          )
        })}
      </div>
    </div>
  )
}

function matchLabel(
  match: SearchMatch,
  replacing: boolean,
  replacementOf: (m: SearchMatch) => string,
): string {
  const { before, match: text, after } = match.preview
  const line = displayName(`${before}${text}${after}`)
  const change = replacing ? `, replace ${displayName(text)} with ${displayName(replacementOf(match))}` : ''
  return `Line ${match.line}: ${line}${change}`
}

function FileRow({
  row,
  replacing,
  onReplaceFile,
}: {
  row: Extract<SearchRow, { kind: 'file' }>
  replacing: boolean
  onReplaceFile(file: ResultFile): void
}) {
  const { name, folder } = nameAndFolder(row.file.label)
  return (
    <>
      <span className="tree-chevron" aria-hidden="true">
        <Icon name={row.expanded ? 'chevron-down' : 'chevron-right'} />
      </span>
      <Icon name="file" className="tree-icon" />
      <span className="tree-name">{displayName(name)}</span>
      {folder && <span className="search-folder">{displayName(folder)}</span>}
      {row.file.unsaved && <span className="search-note">unsaved</span>}
      {row.file.skipped && (
        <span className="search-skipped">
          <Icon name="warning" /> skipped: {row.file.skipped}
        </span>
      )}
      <span className="search-actions">
        {replacing && !row.file.skipped && (
          <IconButton
            icon="replace-all"
            label="Replace All in this file (Ctrl+Shift+1)"
            mouseOnly
            onClick={(e) => {
              e.stopPropagation()
              onReplaceFile(row.file)
            }}
          />
        )}
        <span className="search-badge" aria-hidden="true">
          {row.file.matches.length}
        </span>
      </span>
    </>
  )
}

function MatchRow({
  file,
  match,
  replacing,
  replacement,
  onReplaceMatch,
}: {
  file: ResultFile
  match: SearchMatch
  replacing: boolean
  replacement: string
  onReplaceMatch(file: ResultFile, match: SearchMatch): void
}) {
  const { before, match: text, after } = match.preview
  return (
    <>
      <span className="search-line">
        {displayName(before)}
        {replacing ? (
          <>
            <del className="search-old">{displayName(text)}</del>
            <ins className="search-new">{displayName(replacement)}</ins>
          </>
        ) : (
          <mark className="search-match">{displayName(text)}</mark>
        )}
        {displayName(after)}
      </span>
      {replacing && !file.skipped && !match.lossy && (
        <span className="search-actions">
          <IconButton
            icon="replace"
            label="Replace (Ctrl+Shift+1)"
            mouseOnly
            onClick={(e) => {
              e.stopPropagation()
              onReplaceMatch(file, match)
            }}
          />
        </span>
      )}
    </>
  )
}
