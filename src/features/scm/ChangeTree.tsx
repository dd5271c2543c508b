import { useVirtualizer } from '@tanstack/react-virtual'
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import type { ChangeGroup, GitChange } from '../../sandbox/git/gitStatus'
import { displayName } from '../../ui/displayName'
import { Icon } from '../../ui/Icon'
import { IconButton } from '../../ui/IconButton'
import { treeKey } from '../../ui/treeKeys'
import { touchFirst, useMediaQuery } from '../../ui/useMediaQuery'
import { groupTitles, letterWords, type ScmRow, shownOf, splitPath } from './scmRows'

/** Rows a mouse points at, and rows a finger taps (at least 32 px), as in the explorer. */
const rowHeights = { pointer: 22, touch: 32 }

/** What can be done to a group's files, as VS Code's view offers it. */
export type ChangeAction = 'stage' | 'unstage' | 'discard'

const groupActions: Record<ChangeGroup, ChangeAction[]> = {
  merge: ['stage'],
  staged: ['unstage'],
  changes: ['discard', 'stage'],
  untracked: ['discard', 'stage'],
}
const actionIcons: Record<ChangeAction, string> = { stage: 'add', unstage: 'remove', discard: 'discard' }
const actionTitles: Record<ChangeAction, [one: string, all: string]> = {
  stage: ['Stage Changes', 'Stage All Changes'],
  unstage: ['Unstage Changes', 'Unstage All Changes'],
  discard: ['Discard Changes', 'Discard All Changes'],
}
/** The keys of the tree's actions, on the active row (a file, or a group's files). */
const actionKeys: Record<string, ChangeAction> = { '+': 'stage', '-': 'unstage', Delete: 'discard' }

function changeLabel(change: GitChange): string {
  const { name, folder } = splitPath(change.path)
  const from = change.from ? `, from ${displayName(change.from.path)}` : ''
  return `${displayName(name)}${folder ? `, ${displayName(folder)}` : ''}, ${letterWords[change.letter]}${from}`
}

function rowLabel(row: ScmRow): string {
  if (row.kind === 'change') return changeLabel(row.change)
  if (row.kind === 'more') return shownOf(row.shown, row.total)
  return `${groupTitles[row.group]}, ${row.total.toLocaleString('en')} file${row.total === 1 ? '' : 's'}`
}

/** The changes a row stands for: its file, or the files a group lists. */
const changesOf = (row: ScmRow): GitChange[] =>
  row.kind === 'change' ? [row.change] : row.kind === 'group' ? row.changes : []

/**
 * The changes as an ARIA tree of groups and their files, virtualized as the explorer is (a
 * repository may list thousands): one tab stop with aria-activedescendant; arrows, Home, End,
 * Page Up/Down move, Right and Left expand and collapse, Enter or a click opens a file's diff;
 * + stages, - unstages and Delete discards the active file (or the group's files).
 */
export function ChangeTree({
  rows,
  disabled,
  onOpen,
  onToggle,
  onAction,
}: {
  rows: ScmRow[]
  /** While an action runs: the rows' actions wait. */
  disabled: boolean
  onOpen(change: GitChange): void
  onToggle(group: ChangeGroup): void
  onAction(action: ChangeAction, group: ChangeGroup, changes: GitChange[]): void
}) {
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
  const groupRowOf = (at: number) => rows.findIndex((r) => r.kind === 'group' && r.group === rows[at]?.group)
  const activate = (row: ScmRow) => {
    if (row.kind === 'group') onToggle(row.group)
    else if (row.kind === 'change') onOpen(row.change)
  }
  const act = (action: ChangeAction, row: ScmRow) => {
    const changes = changesOf(row)
    if (!disabled && changes.length && groupActions[row.group].includes(action))
      onAction(action, row.group, changes)
  }

  const actionFor = (key: string, row: ScmRow): (() => void) | undefined => {
    const move = treeKey(
      key,
      {
        index,
        count: rows.length,
        expanded: row.kind === 'group' ? row.expanded : undefined,
        parent: () => groupRowOf(index),
      },
      { moveTo, toggle: () => onToggle(row.group), activate: () => activate(row) },
    )
    if (move) return move
    const action = actionKeys[key]
    return action && (() => act(action, row))
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action = current && actionFor(event.key, current)
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return
    event.preventDefault()
    action()
  }

  return (
    <div
      ref={scroller}
      className="tree-scroller change-tree"
      role="tree"
      aria-label="Changes"
      tabIndex={0}
      aria-activedescendant={current ? `${rowId}-${index}` : undefined}
      aria-keyshortcuts="+ - Delete"
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index] as ScmRow
          const { name, folder } =
            row.kind === 'change' ? splitPath(row.change.path) : { name: '', folder: '' }
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the tree owns the keyboard (aria-activedescendant)
            <div
              key={row.key}
              id={`${rowId}-${item.index}`}
              role="treeitem"
              tabIndex={-1}
              aria-level={row.kind === 'group' ? 1 : 2}
              aria-setsize={row.setsize}
              aria-posinset={row.posinset}
              aria-selected={item.index === index}
              aria-expanded={row.kind === 'group' ? row.expanded : undefined}
              aria-disabled={row.kind === 'more' ? true : undefined}
              aria-label={rowLabel(row)}
              title={
                row.kind === 'change'
                  ? `${displayName(row.change.path)}${row.change.from ? ` ← ${displayName(row.change.from.path)}` : ''} • ${letterWords[row.change.letter]}`
                  : undefined
              }
              className="tree-row scm-row"
              data-active={item.index === index}
              data-git={row.kind === 'change' ? row.change.letter : undefined}
              style={{
                transform: `translateY(${item.start}px)`,
                height: rowHeight,
                paddingLeft: row.kind === 'group' ? 6 : 22,
              }}
              onClick={() => {
                setActive(item.index)
                activate(row)
              }}
            >
              {row.kind === 'group' && (
                <>
                  <span className="tree-chevron" aria-hidden="true">
                    <Icon name={row.expanded ? 'chevron-down' : 'chevron-right'} />
                  </span>
                  <span className="tree-name scm-group-title">{groupTitles[row.group]}</span>
                </>
              )}
              {row.kind === 'change' && (
                <>
                  <span className="tree-name">{displayName(name)}</span>
                  {folder && <span className="scm-folder">{displayName(folder)}</span>}
                </>
              )}
              {row.kind === 'more' && <span className="scm-more">{shownOf(row.shown, row.total)}</span>}
              {row.kind !== 'more' && (
                <span className="scm-row-end">
                  {/* For the mouse: the keyboard has + - Delete on the active row. */}
                  {groupActions[row.group].map((action) => (
                    <IconButton
                      key={action}
                      icon={actionIcons[action]}
                      label={actionTitles[action][row.kind === 'group' ? 1 : 0]}
                      mouseOnly
                      className="scm-action"
                      disabled={disabled}
                      onClick={(event) => {
                        event.stopPropagation()
                        act(action, row)
                      }}
                    />
                  ))}
                  {row.kind === 'group' ? (
                    <span className="scm-badge" aria-hidden="true">
                      {row.total.toLocaleString('en')}
                    </span>
                  ) : (
                    <span className="scm-letter" aria-hidden="true">
                      {row.change.letter}
                    </span>
                  )}
                </span>
              )}
            </div>
          )
        })}
      </div>
    </div>
  )
}
