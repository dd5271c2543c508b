// `git status --porcelain=v2 -z --branch --untracked-files=all`, read as bytes: file names keep
// their own bytes (for the commands that act on them) beside text to show.

/** The groups of the Source Control view, in VS Code's order. */
export const changeGroups = ['merge', 'staged', 'changes', 'untracked'] as const
export type ChangeGroup = (typeof changeGroups)[number]

/**
 * A change's letter, as the view shows it: Modified, Added, Deleted, Renamed, Copied, Type
 * changed, Unmerged (a conflict), ? untracked.
 */
export type ChangeLetter = 'M' | 'A' | 'D' | 'R' | 'C' | 'T' | 'U' | '?'

/** One file in one group (a file staged and changed again is in two). */
export interface GitChange {
  group: ChangeGroup
  letter: ChangeLetter
  /** Relative to the repository's top, as text (bytes that are not UTF-8 shown as U+FFFD). */
  path: string
  /** The same, as git wrote it: what commands about this file are given. */
  pathBytes: Uint8Array
  /** Where a rename or copy came from. */
  from?: { path: string; pathBytes: Uint8Array }
}

/** What HEAD is. */
export interface GitBranch {
  /** The commit HEAD points at; undefined before the first commit. */
  oid: string | undefined
  /** The branch's name; undefined when HEAD is detached. */
  name: string | undefined
  upstream: string | undefined
  /** Commits ahead of and behind the upstream, when there is one. */
  ahead: number | undefined
  behind: number | undefined
}

/** One group: the first `limit` changes and how many there are in all. */
export interface StatusGroup {
  changes: GitChange[]
  total: number
}

export interface GitStatus {
  branch: GitBranch
  groups: Record<ChangeGroup, StatusGroup>
  /** Every changed path (relative, as text) and its strongest letter, whatever the cap. */
  letters: Map<string, ChangeLetter>
}

/** Git lists a 10,000-file change in full; the view shows this many per group, and the count. */
export const groupLimit = 1000

const decoder = new TextDecoder()
const text = (bytes: Uint8Array) => decoder.decode(bytes)

/** Which letter wins when a file is in two groups (a conflict over all, then a deletion…). */
export const letterStrength: Record<ChangeLetter, number> = {
  U: 6,
  D: 5,
  M: 4,
  T: 4,
  R: 3,
  C: 3,
  A: 2,
  '?': 1,
}

/** Where the path of `record` starts: after its `count` fields and their spaces (a path may hold spaces). */
function pathStart(record: Uint8Array, count: number): number | undefined {
  let spaces = 0
  for (let i = 0; i < record.length; i++) if (record[i] === 0x20 && ++spaces === count) return i + 1
  return undefined
}

const letterOf = (code: string): ChangeLetter | undefined =>
  code === 'M' || code === 'A' || code === 'D' || code === 'R' || code === 'C' || code === 'T'
    ? code
    : undefined

/** How many fields come before the path in each kind of record. */
const fieldCounts: Record<string, number> = { '1': 8, '2': 9, u: 10, '?': 1, '!': 1 }

/** Parses git's porcelain v2 status (`-z`, with `--branch`); throws on a record it does not know. */
export function parseStatus(bytes: Uint8Array, limit = groupLimit): GitStatus {
  const branch: GitBranch = {
    oid: undefined,
    name: undefined,
    upstream: undefined,
    ahead: undefined,
    behind: undefined,
  }
  const groups = Object.fromEntries(
    changeGroups.map((g) => [g, { changes: [], total: 0 }]),
  ) as unknown as Record<ChangeGroup, StatusGroup>
  const letters = new Map<string, ChangeLetter>()
  const add = (change: GitChange) => {
    const group = groups[change.group]
    group.total++
    if (group.changes.length < limit) group.changes.push(change)
    const known = letters.get(change.path)
    if (!known || letterStrength[change.letter] > letterStrength[known])
      letters.set(change.path, change.letter)
  }
  const path = (pathBytes: Uint8Array) => ({ path: text(pathBytes), pathBytes })

  let at = 0
  const next = (): Uint8Array | undefined => {
    if (at >= bytes.length) return undefined
    let end = bytes.indexOf(0, at)
    if (end < 0) end = bytes.length
    const record = bytes.subarray(at, end)
    at = end + 1
    return record
  }
  for (let record = next(); record; record = next()) {
    if (record.length === 0) continue
    const kind = String.fromCharCode(record[0] as number)
    if (kind === '#') {
      const header = text(record)
      const [, key, ...value] = header.split(' ')
      const rest = value.join(' ')
      if (key === 'branch.oid') branch.oid = rest === '(initial)' ? undefined : rest
      else if (key === 'branch.head') branch.name = rest === '(detached)' ? undefined : rest
      else if (key === 'branch.upstream') branch.upstream = rest
      else if (key === 'branch.ab') {
        const [ahead, behind] = value
        branch.ahead = Math.abs(Number(ahead))
        branch.behind = Math.abs(Number(behind))
      }
      continue
    }
    const count = fieldCounts[kind]
    const start = count === undefined ? undefined : pathStart(record, count)
    if (start === undefined)
      throw new Error(`git status wrote a line it is not known to write: ${text(record).slice(0, 200)}`)
    const target = path(record.subarray(start))
    if (kind === '?') add({ group: 'untracked', letter: '?', ...target })
    else if (kind === 'u') add({ group: 'merge', letter: 'U', ...target })
    else if (kind === '1' || kind === '2') {
      // "1 XY …": X is the index's side, Y the working tree's.
      const from = kind === '2' ? next() : undefined
      const staged = letterOf(String.fromCharCode(record[2] as number))
      const unstaged = letterOf(String.fromCharCode(record[3] as number))
      if (staged) add({ group: 'staged', letter: staged, ...target, ...(from ? { from: path(from) } : {}) })
      // `git add -N` (intent to add) shows as an unstaged addition.
      if (unstaged) add({ group: 'changes', letter: unstaged, ...target })
    }
    // '!' (ignored) is not asked for; were it there, it is no change.
  }
  return { branch, groups, letters }
}
