import { describe, expect, it } from 'vitest'
import { EventType, FileType, fileEntry } from '../../sandbox/sandboxFiles'
import { FileTree } from './fileTree'

const file = (name: string, dir = false) =>
  fileEntry({
    name,
    type: dir ? FileType.DIRECTORY : FileType.FILE,
    path: `/home/user/${name}`,
  })

describe('FileTree', () => {
  it('shows folders first, then files in natural order, hiding dotfiles unless asked', () => {
    const tree = new FileTree('/home/user')
    tree.setListing('/home/user', [
      file('file10'),
      file('b', true),
      file('file2'),
      file('.env'),
      file('a', true),
    ])
    expect([...tree.getSnapshot()].map((r) => r.name)).toEqual(['a', 'b', 'file2', 'file10'])
    tree.setShowHidden(true)
    expect([...tree.getSnapshot()].map((r) => r.name)).toEqual(['a', 'b', '.env', 'file2', 'file10'])
  })

  it('flattens expanded folders with depth and sibling positions', () => {
    const tree = new FileTree('/home/user')
    tree.setListing('/home/user', [file('src', true), file('z.txt')])
    tree.setListing('/home/user/src', [file('main.ts')])
    tree.expand('/home/user/src')
    expect([...tree.getSnapshot()].map((r) => [r.path, r.depth, r.index, r.siblings])).toEqual([
      ['/home/user/src', 1, 1, 2],
      ['/home/user/src/main.ts', 2, 1, 1],
      ['/home/user/z.txt', 1, 2, 2],
    ])
  })

  it('applies creates, removes and renames to loaded folders only, and asks for entries it lacks', () => {
    const tree = new FileTree('/home/user')
    tree.setListing('/home/user', [file('old.txt')])
    const missing = tree.apply([
      { type: EventType.RENAME, path: '/home/user/old.txt' },
      { type: EventType.CREATE, path: '/home/user/new.txt', entry: file('new.txt') },
      { type: EventType.CREATE, path: '/home/user/bare.txt' },
      { type: EventType.CREATE, path: '/elsewhere/x' },
    ])
    expect([...tree.getSnapshot()].map((r) => r.name)).toEqual(['new.txt'])
    expect(missing).toEqual(['/home/user/bare.txt'])
  })

  it('shows exactly one row per file after a burst of a thousand creates', () => {
    const tree = new FileTree('/home/user')
    tree.setListing('/home/user', [])
    const burst = Array.from({ length: 1000 }, (_, i) => ({
      type: EventType.CREATE,
      path: `/home/user/f${i}`,
      entry: file(`f${i}`),
    }))
    tree.apply([...burst, ...burst.slice(0, 10).map((c) => ({ ...c, type: EventType.WRITE }))])
    expect(tree.getSnapshot()).toHaveLength(1000)
    expect(new Set([...tree.getSnapshot()].map((r) => r.name)).size).toBe(1000)
  })

  it('forgets a removed folder and everything below it', () => {
    const tree = new FileTree('/home/user')
    tree.setListing('/home/user', [file('d', true)])
    tree.setListing('/home/user/d', [file('inner')])
    tree.expand('/home/user/d')
    tree.apply([{ type: EventType.REMOVE, path: '/home/user/d' }])
    expect([...tree.getSnapshot()]).toEqual([])
    expect(tree.isLoaded('/home/user/d')).toBe(false)
  })

  it('finds rows by position and by path across open folders, and none past the ends', () => {
    const tree = new FileTree('/home/user')
    tree.setListing('/home/user', [file('a', true), file('b', true), file('x.txt'), file('y.txt')])
    tree.setListing('/home/user/a', [file('a1'), file('a2')])
    tree.setListing('/home/user/b', [file('b1')])
    tree.expand('/home/user/a')
    tree.expand('/home/user/b')
    const rows = tree.getSnapshot()
    const paths = ['a', 'a/a1', 'a/a2', 'b', 'b/b1', 'x.txt', 'y.txt'].map((p) => `/home/user/${p}`)
    expect(rows.length).toBe(7)
    expect(paths.map((_, i) => rows.at(i)?.path)).toEqual(paths)
    expect(paths.map((_, i) => rows.nameAt(i))).toEqual(['a', 'a1', 'a2', 'b', 'b1', 'x.txt', 'y.txt'])
    expect(rows.nameAt(7)).toBeUndefined()
    expect(paths.map((p) => rows.indexOf(p))).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect([rows.at(-1), rows.at(7), rows.at(1.5)]).toEqual([undefined, undefined, undefined])
    expect(rows.indexOf('/home/user/nowhere')).toBe(-1)
    tree.collapse('/home/user/a')
    expect(tree.getSnapshot().indexOf('/home/user/a/a1')).toBe(-1)
    expect(tree.getSnapshot().at(1)?.path).toBe('/home/user/b')
    // The rows already handed out stay as they were.
    expect(rows.at(1)?.path).toBe('/home/user/a/a1')
  })

  it('shows a changed entry in its place, and moves one that became a folder', () => {
    const tree = new FileTree('/home/user')
    tree.setListing('/home/user', [file('m'), file('z'), file('a', true)])
    tree.apply([{ type: EventType.WRITE, path: '/home/user/m', entry: { ...file('m'), size: 42n } }])
    expect([...tree.getSnapshot()].map((r) => [r.name, r.entry.size])).toEqual([
      ['a', 0n],
      ['m', 42n],
      ['z', 0n],
    ])
    tree.upsert('/home/user/z', file('z', true))
    expect([...tree.getSnapshot()].map((r) => [r.name, r.isDir])).toEqual([
      ['a', true],
      ['z', true],
      ['m', false],
    ])
    expect(tree.entry('/home/user/m')?.size).toBe(42n)
  })

  it('gives the rows of a folder of 100,000 entries by position and by path', () => {
    const tree = new FileTree('/home/user')
    tree.setListing('/home/user', [file('big', true)])
    tree.expand('/home/user/big')
    const names = Array.from({ length: 100_000 }, (_, i) => String(i + 1).padStart(6, '0'))
    tree.setListing(
      '/home/user/big',
      names.map((name) => file(name)),
    )
    const rows = tree.getSnapshot()
    expect(rows.length).toBe(100_001)
    expect(rows.at(1)?.name).toBe('000001')
    expect(rows.at(100_000)).toMatchObject({ name: '100000', depth: 2, index: 100_000, siblings: 100_000 })
    expect(rows.indexOf('/home/user/big/050000')).toBe(50_000)
  })
})
