import type { ChangeGroup, ChangeLetter, GitChange, GitStatus } from '../../sandbox/git/gitStatus'
import { changeGroups } from '../../sandbox/git/gitStatus'

/** Each group's title, as VS Code's view calls it. */
export const groupTitles: Record<ChangeGroup, string> = {
  merge: 'Merge Changes',
  staged: 'Staged Changes',
  changes: 'Changes',
  untracked: 'Untracked Changes',
}

/** What a letter means, for screen readers and tooltips. */
export const letterWords: Record<ChangeLetter, string> = {
  M: 'Modified',
  A: 'Added',
  D: 'Deleted',
  R: 'Renamed',
  C: 'Copied',
  T: 'Type changed',
  U: 'Conflict',
  '?': 'Untracked',
}

/** A row of the view's tree: a group (level 1), one of its files, or how many more it has than are listed. */
export type ScmRow =
  | {
      kind: 'group'
      key: string
      group: ChangeGroup
      changes: GitChange[]
      total: number
      expanded: boolean
      posinset: number
      setsize: number
    }
  | { kind: 'change'; key: string; group: ChangeGroup; change: GitChange; posinset: number; setsize: number }
  | {
      kind: 'more'
      key: string
      group: ChangeGroup
      shown: number
      total: number
      posinset: number
      setsize: number
    }

/** The rows of the groups that have changes, in VS Code's order; a collapsed group shows its row alone. */
export function scmRows(status: GitStatus, collapsed: ReadonlySet<ChangeGroup>): ScmRow[] {
  const rows: ScmRow[] = []
  const shownGroups = changeGroups.filter((g) => status.groups[g].total > 0)
  shownGroups.forEach((group, index) => {
    const { changes, total } = status.groups[group]
    const expanded = !collapsed.has(group)
    rows.push({
      kind: 'group',
      key: group,
      group,
      changes,
      total,
      expanded,
      posinset: index + 1,
      setsize: shownGroups.length,
    })
    if (!expanded) return
    const capped = total > changes.length
    const setsize = changes.length + (capped ? 1 : 0)
    for (const [i, change] of changes.entries())
      rows.push({
        kind: 'change',
        // A name's bytes may not be text; its index keeps keys apart where two decode alike.
        key: `${group}:${i}:${change.path}`,
        group,
        change,
        posinset: i + 1,
        setsize,
      })
    if (capped)
      rows.push({
        kind: 'more',
        key: `${group}:more`,
        group,
        shown: changes.length,
        total,
        posinset: setsize,
        setsize,
      })
  })
  return rows
}

/** The file's name and the folder it is in (relative to the repository), as the row shows them. */
export function splitPath(path: string): { name: string; folder: string } {
  const slash = path.lastIndexOf('/')
  return slash < 0
    ? { name: path, folder: '' }
    : { name: path.slice(slash + 1), folder: path.slice(0, slash) }
}

/** "1,000 shown of 10,000". */
export function shownOf(shown: number, total: number): string {
  return `${shown.toLocaleString('en')} shown of ${total.toLocaleString('en')}`
}
