import { constants } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fileModeString } from './fileModeString'

const { S_IFREG, S_IFDIR, S_IFLNK, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK } = constants

describe('fileModeString (Go FileMode.String)', () => {
  it.each([
    [S_IFREG | 0o644, '-rw-r--r--'],
    [S_IFREG | 0o000, '----------'],
    [S_IFDIR | 0o755, 'drwxr-xr-x'],
    [S_IFLNK | 0o777, 'Lrwxrwxrwx'],
    [S_IFDIR | 0o1777, 'dtrwxrwxrwx'],
    [S_IFREG | 0o4755, 'urwxr-xr-x'],
    [S_IFDIR | 0o2775, 'dgrwxrwxr-x'],
    [S_IFREG | 0o6755, 'ugrwxr-xr-x'],
    [S_IFCHR | 0o666, 'Dcrw-rw-rw-'],
    [S_IFBLK | 0o660, 'Drw-rw----'],
    [S_IFIFO | 0o644, 'prw-r--r--'],
    [S_IFSOCK | 0o755, 'Srwxr-xr-x'],
  ])('mode %o is %s', (mode, expected) => {
    expect(fileModeString(mode)).toBe(expected)
  })
})
