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
    expect(tree.getSnapshot().map((r) => r.name)).toEqual(['a', 'b', 'file2', 'file10'])
    tree.setShowHidden(true)
    expect(tree.getSnapshot().map((r) => r.name)).toEqual(['a', 'b', '.env', 'file2', 'file10'])
  })

  it('flattens expanded folders with depth and sibling positions', () => {
    const tree = new FileTree('/home/user')
    tree.setListing('/home/user', [file('src', true), file('z.txt')])
    tree.setListing('/home/user/src', [file('main.ts')])
    tree.expand('/home/user/src')
    expect(tree.getSnapshot().map((r) => [r.path, r.depth, r.index, r.siblings])).toEqual([
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
    expect(tree.getSnapshot().map((r) => r.name)).toEqual(['new.txt'])
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
  })

  it('forgets a removed folder and everything below it', () => {
    const tree = new FileTree('/home/user')
    tree.setListing('/home/user', [file('d', true)])
    tree.setListing('/home/user/d', [file('inner')])
    tree.expand('/home/user/d')
    tree.apply([{ type: EventType.REMOVE, path: '/home/user/d' }])
    expect(tree.getSnapshot()).toEqual([])
    expect(tree.isLoaded('/home/user/d')).toBe(false)
  })
})
