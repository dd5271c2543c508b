import { describe, expect, it } from 'vitest'
import { parseStatus } from '../../sandbox/git/gitStatus'
import { scmRows, shownOf, splitPath } from './scmRows'

const encoder = new TextEncoder()
const status = (records: string[], limit?: number) =>
  parseStatus(encoder.encode(records.map((r) => `${r}\0`).join('')), limit)

describe('scmRows', () => {
  it('lists the groups that have changes, in VS Code order, each with its files', () => {
    const rows = scmRows(
      status([
        '? new.txt',
        '1 M. N... 100644 100644 100644 a b src/a.ts',
        '1 .M N... 100644 100644 100644 a b b.ts',
      ]),
      new Set(),
    )
    expect(
      rows.map((r) =>
        r.kind === 'group' ? `${r.group} (${r.total})` : r.kind === 'change' ? r.change.path : r.kind,
      ),
    ).toEqual(['staged (1)', 'src/a.ts', 'changes (1)', 'b.ts', 'untracked (1)', 'new.txt'])
    expect(rows[0]).toMatchObject({ posinset: 1, setsize: 3, expanded: true })
  })

  it('shows a collapsed group as its row alone', () => {
    const rows = scmRows(
      status(['? a', '? b', '1 .M N... 100644 100644 100644 a b c']),
      new Set(['untracked']),
    )
    expect(rows.map((r) => r.key)).toEqual(['changes', 'changes:0:c', 'untracked'])
  })

  it('ends a group longer than its list with how many it shows of how many', () => {
    const rows = scmRows(status(['? a', '? b', '? c'], 2), new Set())
    expect(rows.at(-1)).toMatchObject({ kind: 'more', shown: 2, total: 3, posinset: 3, setsize: 3 })
    expect(shownOf(1000, 10_000)).toBe('1,000 shown of 10,000')
  })

  it('splits a path into its name and folder', () => {
    expect(splitPath('src/lib/a.ts')).toEqual({ name: 'a.ts', folder: 'src/lib' })
    expect(splitPath('a.ts')).toEqual({ name: 'a.ts', folder: '' })
  })
})
