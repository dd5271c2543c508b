import { describe, expect, it } from 'vitest'
import { bashQuote, gitCommandLine } from './gitCommand'
import { parseStatus } from './gitStatus'
import { decorate } from './SourceControl'

const encoder = new TextEncoder()
/** A status as git writes it with -z: records ended by NUL; a record may be bytes. */
const status = (...records: (string | Uint8Array)[]) => {
  const parts = records.map((r) => (typeof r === 'string' ? encoder.encode(r) : r))
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length + 1, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length + 1
  }
  return out
}
const ordinary = (xy: string, path: string) => `1 ${xy} N... 100644 100644 100644 aaaa bbbb ${path}`

describe('parseStatus', () => {
  it('reads the branch headers: the commit, the branch, its upstream and how far apart they are', () => {
    const { branch } = parseStatus(
      status(
        '# branch.oid 0123abcd',
        '# branch.head main',
        '# branch.upstream origin/main',
        '# branch.ab +2 -1',
      ),
    )
    expect(branch).toEqual({ oid: '0123abcd', name: 'main', upstream: 'origin/main', ahead: 2, behind: 1 })
  })

  it('says when HEAD is detached, and when there is no commit yet', () => {
    expect(parseStatus(status('# branch.oid 0123abcd', '# branch.head (detached)')).branch).toMatchObject({
      oid: '0123abcd',
      name: undefined,
    })
    expect(parseStatus(status('# branch.oid (initial)', '# branch.head main')).branch).toMatchObject({
      oid: undefined,
      name: 'main',
    })
  })

  it('puts a file staged and changed again in both groups, and a deletion in the changes', () => {
    const { groups, letters } = parseStatus(status(ordinary('MM', 'src/a b.ts'), ordinary('.D', 'gone.txt')))
    expect(groups.staged.changes.map((c) => [c.letter, c.path])).toEqual([['M', 'src/a b.ts']])
    expect(groups.changes.changes.map((c) => [c.letter, c.path])).toEqual([
      ['M', 'src/a b.ts'],
      ['D', 'gone.txt'],
    ])
    expect(letters.get('gone.txt')).toBe('D')
  })

  it('reads a rename with where it came from, a conflict and an untracked file', () => {
    const { groups } = parseStatus(
      status(
        '2 R. N... 100644 100644 100644 aaaa aaaa R100 new name.txt',
        'old name.txt',
        'u UU N... 100644 100644 100644 100644 aaaa bbbb cccc both.txt',
        '? notes/todo.md',
      ),
    )
    expect(groups.staged.changes[0]).toMatchObject({
      letter: 'R',
      path: 'new name.txt',
      from: { path: 'old name.txt' },
    })
    expect(groups.merge.changes[0]).toMatchObject({ letter: 'U', path: 'both.txt' })
    expect(groups.untracked.changes[0]).toMatchObject({ letter: '?', path: 'notes/todo.md' })
  })

  it('keeps a hostile name as its bytes and shows it as text', () => {
    const name = new Uint8Array([...encoder.encode('? a\n"b\''), 0xff, 0x41])
    const [change] = parseStatus(status(name)).groups.untracked.changes
    expect(change?.path).toBe('a\n"b\'\uFFFDA')
    expect([...(change?.pathBytes ?? [])]).toEqual([...name.subarray(2)])
  })

  it('lists at most the limit per group and counts them all', () => {
    const records = Array.from({ length: 2500 }, (_, i) => `? f${i}`)
    const { groups, letters } = parseStatus(status(...records), 1000)
    expect(groups.untracked.changes).toHaveLength(1000)
    expect(groups.untracked.total).toBe(2500)
    expect(letters.size).toBe(2500)
  })

  it('refuses a record it does not know rather than guess', () => {
    expect(() => parseStatus(status('X what'))).toThrow(/not known to write: X what/)
  })
})

describe('decorate', () => {
  it('marks each changed file and every folder above it with the strongest letter below', () => {
    const marks = decorate(
      '/home/user',
      new Map([
        ['src/new.ts', '?'],
        ['src/lib/old.ts', 'M'],
        ['top.txt', 'D'],
      ] as const),
    )
    expect(Object.fromEntries(marks)).toEqual({
      '/home/user/src/new.ts': '?',
      '/home/user/src/lib/old.ts': 'M',
      '/home/user/src/lib': 'M',
      '/home/user/src': 'M',
      '/home/user/top.txt': 'D',
    })
  })
})

describe('bashQuote', () => {
  it('makes a plain ASCII command line whatever the bytes, and runs git itself with its arguments in order', () => {
    expect(bashQuote(new Uint8Array([0x61, 0x0a, 0x27, 0x5c, 0xff]))).toBe("$'a\\012\\047\\134\\377'")
    expect(gitCommandLine(['commit', '-F', '-'])).toBe("exec git $'commit' $'-F' $'-'")
    expect(() => bashQuote('a\0b')).toThrow(/NUL/)
  })
})
