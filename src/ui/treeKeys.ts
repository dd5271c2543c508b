/** The active row of a tree, as its keys see it. */
export interface TreeKeyRow {
  index: number
  /** Rows in the tree. */
  count: number
  /** Whether the rows it holds show; undefined for a row that holds none. */
  expanded: boolean | undefined
  /** The row that holds it, where Left goes; undefined at the top. */
  parent(): number | undefined
}

/** What the tree does for its keys. */
export interface TreeKeyHandlers {
  moveTo(index: number): void
  /** Opens or closes the active row. */
  toggle(): void
  /** Enter: opens what the row stands for (a file, a match), or toggles it. */
  activate(): void
}

/** Rows one Page Up or Page Down moves. */
const page = 20

/**
 * The ARIA tree pattern's keys, as VS Code has them, for every tree of the workbench: Up and
 * Down, Home and End, Page Up and Down move; Right opens a closed row or goes into an open one;
 * Left closes an open row or goes up to the one that holds it; Enter activates. Undefined for
 * any other key, which the tree may give a meaning of its own (F2, Delete, type to find).
 */
export function treeKey(key: string, row: TreeKeyRow, on: TreeKeyHandlers): (() => void) | undefined {
  const { index, count } = row
  switch (key) {
    case 'ArrowDown':
      return () => on.moveTo(index + 1)
    case 'ArrowUp':
      return () => on.moveTo(index - 1)
    case 'Home':
      return () => on.moveTo(0)
    case 'End':
      return () => on.moveTo(count - 1)
    case 'PageDown':
      return () => on.moveTo(index + page)
    case 'PageUp':
      return () => on.moveTo(index - page)
    case 'ArrowRight':
      return () => {
        if (row.expanded === undefined) return
        if (row.expanded) on.moveTo(index + 1)
        else on.toggle()
      }
    case 'ArrowLeft':
      return () => {
        if (row.expanded) return on.toggle()
        const parent = row.parent()
        if (parent !== undefined && parent >= 0) on.moveTo(parent)
      }
    case 'Enter':
      return on.activate
  }
  return undefined
}
