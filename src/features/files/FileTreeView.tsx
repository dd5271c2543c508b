import { useVirtualizer } from '@tanstack/react-virtual'
import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import type { ChangeLetter } from '../../sandbox/git/gitStatus'
import { displayName } from '../../ui/displayName'
import { Icon } from '../../ui/Icon'
import { treeKey } from '../../ui/treeKeys'
import { touchFirst, useMediaQuery } from '../../ui/useMediaQuery'
import type { ExplorerActions } from './explorerActions'
import { fileIcon } from './fileIcon'
import { type FileTree, parentOf } from './fileTree'
import type { TreeRow, TreeRows } from './treeRows'

/** Rows a mouse points at, and rows a finger taps (at least 32 px, as touch guidelines ask). */
const rowHeights = { pointer: 22, touch: 32 }
/** What a row says of a file (or a folder holding one) git sees changed; its colour says it to the eye. */
const changeWords: Record<ChangeLetter, string> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type changed',
  U: 'in conflict',
  '?': 'untracked',
}

/** Where a drag from inside the tree carries its path. */
const pathMime = 'application/x-sandbox-path'

export interface TreeCommands {
  /** Opens a file; with `focus`, the editor takes the keyboard (Enter, double-click), else it stays here. */
  open(row: TreeRow, focus: boolean): void
  toggle(row: TreeRow): void
  rename(row: TreeRow): void
  remove(row: TreeRow): void
  menu(row: TreeRow, x: number, y: number): void
  upload(dir: string, data: DataTransfer): void
}

/**
 * The virtualized tree: only the rows on screen exist in the page, so a folder of 100,000 entries
 * opens and scrolls smoothly. One tab stop (the tree itself) with aria-activedescendant, and the
 * keyboard model of an ARIA tree, plus F2, Delete, the context-menu key and type-to-find.
 */
export function FileTreeView({
  tree,
  rows,
  actions,
  commands,
  disabled,
  reveal,
  changes,
  openBy,
}: {
  tree: FileTree
  rows: TreeRows
  actions: ExplorerActions
  commands: TreeCommands
  disabled: boolean
  /** A path to make the active row (and scroll to) as soon as it is listed: a new or renamed item. */
  reveal?: string | undefined
  /** Files git sees changed and the folders holding them, by path: one lookup per row shown. */
  changes?: ReadonlyMap<string, ChangeLetter> | undefined
  /** Files others have open (co-editing), by path. */
  openBy?: ReadonlyMap<string, readonly { name: string; color: string }[]> | undefined
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const [active, setActive] = useState(0)
  const [dropTarget, setDropTarget] = useState<string>()
  const typed = useRef({ text: '', at: 0 })
  const rowHeight = useMediaQuery(touchFirst) ? rowHeights.touch : rowHeights.pointer
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 16,
  })
  const current = rows.at(Math.min(active, rows.length - 1))
  // biome-ignore lint/correctness/useExhaustiveDependencies: rows are placed again at a new height
  useEffect(() => virtualizer.measure(), [rowHeight])

  useEffect(() => {
    if (active >= rows.length && rows.length > 0) setActive(rows.length - 1)
  }, [active, rows.length])

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new reveal or new rows move the selection
  useEffect(() => {
    const index = reveal === undefined ? -1 : rows.indexOf(reveal)
    if (index >= 0) {
      setActive(index)
      virtualizer.scrollToIndex(index)
    }
  }, [reveal, rows])

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, index))
    setActive(next)
    virtualizer.scrollToIndex(next)
  }

  const findTyped = (char: string, at: number) => {
    const t = typed.current
    t.text = at - t.at > 700 ? char : t.text + char
    t.at = at
    const needle = t.text.toLowerCase()
    for (let step = t.text.length === 1 ? 1 : 0; step <= rows.length; step++) {
      const index = (active + step) % rows.length
      if (rows.nameAt(index)?.toLowerCase().startsWith(needle)) return moveTo(index)
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = current
    if (!row) return
    const parent = () => rows.indexOf(parentOf(row.path))
    const menuAt = () => {
      const box = document.getElementById(`tree-row-${active}`)?.getBoundingClientRect()
      commands.menu(row, box?.left ?? 0, box?.bottom ?? 0)
    }
    const actionFor = (key: string): (() => void) | undefined => {
      const move = treeKey(
        key,
        { index: active, count: rows.length, expanded: row.isDir ? row.expanded : undefined, parent },
        {
          moveTo,
          toggle: () => commands.toggle(row),
          activate: () => (row.isDir ? commands.toggle(row) : commands.open(row, true)),
        },
      )
      if (move) return move
      if (disabled) return undefined
      if (key === 'F2') return () => commands.rename(row)
      if (key === 'Delete') return () => commands.remove(row)
      if (key === 'ContextMenu') return menuAt
      return undefined
    }
    const key = event.key === 'F10' && event.shiftKey ? 'ContextMenu' : event.key
    const action = actionFor(key)
    if (action) {
      event.preventDefault()
      action()
    } else if (key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      findTyped(key, event.timeStamp)
    }
  }

  const dropInto = (dir: string, event: React.DragEvent) => {
    event.preventDefault()
    setDropTarget(undefined)
    if (disabled) return
    const from = event.dataTransfer.getData(pathMime)
    if (from) {
      const to = `${dir}/${from.slice(from.lastIndexOf('/') + 1)}`
      if (to !== from) void actions.move(from, to)
    } else if (event.dataTransfer.types.includes('Files')) {
      commands.upload(dir, event.dataTransfer)
    }
  }

  return (
    <div
      ref={scroller}
      className="tree-scroller"
      role="tree"
      aria-label="Files"
      tabIndex={0}
      aria-activedescendant={current ? `tree-row-${active}` : undefined}
      onKeyDown={onKeyDown}
      onDragOver={(e) => {
        e.preventDefault()
        setDropTarget(tree.root)
      }}
      onDragLeave={() => setDropTarget(undefined)}
      onDrop={(e) => dropInto(tree.root, e)}
      data-drop-target={dropTarget === tree.root}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows.at(item.index) as TreeRow
          const folder = row.isDir ? row.path : parentOf(row.path)
          const change = changes?.get(row.path)
          const others = row.isDir ? undefined : openBy?.get(row.path)
          const description = [
            change && (row.isDir ? `holds ${changeWords[change]} files` : changeWords[change]),
            others && `open by ${others.map((person) => person.name).join(', ')}`,
          ]
            .filter(Boolean)
            .join('; ')
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the tree owns the keyboard (aria-activedescendant)
            <div
              key={row.path}
              id={`tree-row-${item.index}`}
              role="treeitem"
              tabIndex={-1}
              aria-level={row.depth}
              aria-setsize={row.siblings}
              aria-posinset={row.index}
              aria-selected={item.index === active}
              aria-expanded={row.isDir ? row.expanded : undefined}
              aria-label={row.name}
              aria-description={description || undefined}
              data-git={change}
              title={row.isSymlink ? `${row.path} → ${row.entry.symlinkTarget}` : row.path}
              className="tree-row"
              data-active={item.index === active}
              data-drop-target={dropTarget === row.path}
              draggable={!disabled}
              style={{
                transform: `translateY(${item.start}px)`,
                height: rowHeight,
                paddingLeft: 6 + (row.depth - 1) * 14,
              }}
              onClick={() => {
                setActive(item.index)
                if (row.isDir) commands.toggle(row)
                else commands.open(row, false)
              }}
              onDoubleClick={() => {
                if (!row.isDir) commands.open(row, true)
              }}
              onContextMenu={(e) => {
                e.preventDefault()
                setActive(item.index)
                commands.menu(row, e.clientX, e.clientY)
              }}
              onDragStart={(e) => {
                e.dataTransfer.setData(pathMime, row.path)
                e.dataTransfer.effectAllowed = 'move'
              }}
              onDragOver={(e) => {
                e.preventDefault()
                e.stopPropagation()
                setDropTarget(folder)
              }}
              onDrop={(e) => {
                e.stopPropagation()
                dropInto(folder, e)
              }}
            >
              <span className="tree-chevron" aria-hidden="true">
                {row.isDir &&
                  (row.loading ? (
                    <Icon name="loading" className="codicon-modifier-spin" />
                  ) : (
                    <Icon name={row.expanded ? 'chevron-down' : 'chevron-right'} />
                  ))}
              </span>
              <Icon name={fileIcon(row.name, row)} className="tree-icon" />
              <span className="tree-name">{displayName(row.name)}</span>
              {others && (
                <span
                  className="tree-people"
                  aria-hidden="true"
                  title={`Open by ${others.map((p) => p.name).join(', ')}`}
                >
                  {others.slice(0, 3).map((person) => (
                    <span
                      key={person.name + person.color}
                      className="tree-person"
                      style={{ background: person.color }}
                    />
                  ))}
                </span>
              )}
              {change && (
                <span className="git-badge" aria-hidden="true">
                  {row.isDir ? '•' : change === '?' ? 'U' : change}
                </span>
              )}
            </div>
          )
        })}
      </div>
    </div>
  )
}
