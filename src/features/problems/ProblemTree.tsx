import { useVirtualizer } from '@tanstack/react-virtual'
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { displayName } from '../../ui/displayName'
import { Icon } from '../../ui/Icon'
import { treeKey } from '../../ui/treeKeys'
import { touchFirst, useMediaQuery } from '../../ui/useMediaQuery'
import type { Problem, ProblemFile, ProblemRow, Severity } from './groupProblems'

/** Rows a mouse points at, and rows a finger taps (at least 32 px), as in the explorer. */
const rowHeights = { pointer: 22, touch: 32 }
const severityNames: Record<Severity, string> = { error: 'Error', warning: 'Warning', info: 'Info' }

/** "[3, 5]": where a problem starts, as VS Code's Problems panel writes it. */
function position(problem: Problem): string {
  return problem.range ? `[${problem.range.startLine}, ${problem.range.startColumn}]` : ''
}

/** A message on one row: a server's line breaks (TypeScript's chains of reasons) become spaces. */
function oneLine(message: string): string {
  return displayName(message.replace(/\s*\n\s*/g, ' '))
}

/** What a screen reader says of a problem, and what a test selects it by. */
function problemLabel(problem: Problem): string {
  const where = problem.range ? `, line ${problem.range.startLine}, column ${problem.range.startColumn}` : ''
  return `${severityNames[problem.severity]}: ${oneLine(problem.message)}${problem.source ? ` ${problem.source}` : ''}${where}`
}

function fileLabel(file: ProblemFile): string {
  const n = file.problems.length
  return `${displayName(file.label)}, ${n} problem${n === 1 ? '' : 's'}`
}

/**
 * The problems as an ARIA tree of files and their problems, virtualized as the explorer is (a
 * project may report thousands): one tab stop with aria-activedescendant; arrows, Home, End,
 * Page Up/Down move, Right and Left expand and collapse, Enter or a click on a problem opens it.
 */
export function ProblemTree({
  rows,
  onOpen,
  onToggle,
}: {
  rows: ProblemRow[]
  /** Opens a problem's file at its place; the editor takes the keyboard. */
  onOpen(file: ProblemFile, problem: Problem): void
  onToggle(file: ProblemFile): void
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const rowId = useId()
  // The active row by its key, so a keyboard user keeps their place while the servers' reports
  // change the rows around it (by its last index when it is gone).
  const [active, setActiveRow] = useState<{ key?: string; index: number }>({ index: 0 })
  const setActive = (at: number) => setActiveRow({ key: rows[at]?.key, index: at })
  const rowHeight = useMediaQuery(touchFirst) ? rowHeights.touch : rowHeights.pointer
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 16,
  })
  const kept = active.key === undefined ? -1 : rows.findIndex((row) => row.key === active.key)
  const index = kept >= 0 ? kept : Math.min(active.index, rows.length - 1)
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
  const activate = (row: ProblemRow) =>
    row.kind === 'file' ? onToggle(row.file) : onOpen(row.file, row.problem)

  const actionFor = (key: string, row: ProblemRow) =>
    treeKey(
      key,
      {
        index,
        count: rows.length,
        expanded: row.kind === 'file' ? row.expanded : undefined,
        parent: () => fileRowOf(index),
      },
      { moveTo, toggle: () => onToggle(row.file), activate: () => activate(row) },
    )

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action = current && actionFor(event.key, current)
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return
    event.preventDefault()
    action()
  }

  return (
    <div
      ref={scroller}
      className="tree-scroller problem-tree"
      role="tree"
      aria-label="Problems"
      tabIndex={0}
      aria-activedescendant={current ? `${rowId}-${index}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index] as ProblemRow
          const problem = row.kind === 'problem' ? row.problem : undefined
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the tree owns the keyboard (aria-activedescendant)
            <div
              key={row.key}
              id={`${rowId}-${item.index}`}
              role="treeitem"
              tabIndex={-1}
              aria-level={problem ? 2 : 1}
              aria-setsize={row.setsize}
              aria-posinset={row.posinset}
              aria-selected={item.index === index}
              aria-expanded={row.kind === 'file' ? row.expanded : undefined}
              aria-label={problem ? problemLabel(problem) : fileLabel(row.file)}
              title={
                problem
                  ? [problem.message, problem.source, position(problem)].filter(Boolean).join(' ')
                  : row.file.path
              }
              className="tree-row"
              data-active={item.index === index}
              style={{
                transform: `translateY(${item.start}px)`,
                height: rowHeight,
                paddingLeft: problem ? 26 : 6,
              }}
              onClick={() => {
                setActive(item.index)
                activate(row)
              }}
            >
              {problem ? (
                <>
                  <Icon name={problem.severity} className={`problem-icon problem-${problem.severity}`} />
                  <span className="problem-message">{oneLine(problem.message)}</span>
                  {problem.source && <span className="problem-meta">{displayName(problem.source)}</span>}
                  {problem.range && <span className="problem-meta">{position(problem)}</span>}
                </>
              ) : (
                <>
                  <span className="tree-chevron" aria-hidden="true">
                    <Icon name={row.kind === 'file' && row.expanded ? 'chevron-down' : 'chevron-right'} />
                  </span>
                  <span className="tree-name">{displayName(row.file.label)}</span>
                  <span className="problem-badge" aria-hidden="true">
                    {row.file.problems.length}
                  </span>
                </>
              )}
            </div>
          )
        })}
      </div>
    </div>
  )
}
