import { describe, expect, it } from 'vitest'
import type { FileChange } from '../../sandbox/fileWatch'
import { EventType, FileType, fileEntry } from '../../sandbox/sandboxFiles'
import { versionOf } from './diskVersion'
import { externalRenames } from './externalRenames'

const entry = (path: string, size: number, seconds: number, type = FileType.FILE) =>
  fileEntry({
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    type,
    size: BigInt(size),
    modifiedSeconds: seconds,
  })

const open = [{ path: '/home/user/a.txt', version: versionOf(entry('/home/user/a.txt', 10, 100)) }]

describe('externalRenames', () => {
  it('pairs a RENAME of an open file with the one CREATE of the same size and time', () => {
    const changes: FileChange[] = [
      { type: EventType.RENAME, path: '/home/user/a.txt' },
      { type: EventType.CREATE, path: '/home/user/other.txt', entry: entry('/home/user/other.txt', 3, 100) },
      { type: EventType.CREATE, path: '/home/user/b.txt', entry: entry('/home/user/b.txt', 10, 100) },
    ]
    expect(externalRenames(changes, open)).toEqual({
      files: [{ from: '/home/user/a.txt', to: '/home/user/b.txt' }],
      folders: [],
    })
  })

  it('follows nothing when no CREATE matches, or more than one does', () => {
    const none: FileChange[] = [
      { type: EventType.RENAME, path: '/home/user/a.txt' },
      { type: EventType.CREATE, path: '/home/user/b.txt', entry: entry('/home/user/b.txt', 10, 101) },
    ]
    expect(externalRenames(none, open).files).toEqual([])
    const two: FileChange[] = [
      { type: EventType.RENAME, path: '/home/user/a.txt' },
      { type: EventType.CREATE, path: '/home/user/b.txt', entry: entry('/home/user/b.txt', 10, 100) },
      { type: EventType.CREATE, path: '/home/user/c.txt', entry: entry('/home/user/c.txt', 10, 100) },
    ]
    expect(externalRenames(two, open).files).toEqual([])
  })

  it('proposes a folder move above an open file when exactly one folder appears', () => {
    const changes: FileChange[] = [
      { type: EventType.RENAME, path: '/home/user' },
      {
        type: EventType.CREATE,
        path: '/home/moved',
        entry: entry('/home/moved', 4096, 7, FileType.DIRECTORY),
      },
    ]
    expect(externalRenames(changes, open)).toEqual({
      files: [],
      folders: [{ from: '/home/user', to: '/home/moved' }],
    })
  })
})
