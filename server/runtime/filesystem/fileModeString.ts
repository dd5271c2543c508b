import { constants } from 'node:fs'

const { S_IFMT, S_IFDIR, S_IFLNK, S_IFBLK, S_IFCHR, S_IFIFO, S_IFSOCK } = constants
// Node's typings lack these three; their values are fixed by POSIX.
const S_ISUID = 0o4000
const S_ISGID = 0o2000
const S_ISVTX = 0o1000

/**
 * Go's `os.FileMode.String()` for a Unix `st_mode` (envd-api.md §4.2): flag letters in Go's
 * order "dalTLDpSugct?" (only those Linux can set), or `-` when there are none, then `rwxrwxrwx`.
 * So a sticky /tmp is `dtrwxrwxrwx`, a setuid binary `urwxr-xr-x`, /dev/null `Dcrw-rw-rw-`.
 */
export function fileModeString(mode: number): string {
  let text = known.get(mode)
  if (text === undefined) {
    text = modeString(mode)
    known.set(mode, text)
  }
  return text
}

/** A listing has few distinct modes among its entries: each one's string is made once. */
const known = new Map<number, string>()

function modeString(mode: number): string {
  const type = mode & S_IFMT
  let flags = ''
  if (type === S_IFDIR) flags += 'd'
  if (type === S_IFLNK) flags += 'L'
  if (type === S_IFBLK || type === S_IFCHR) flags += 'D'
  if (type === S_IFIFO) flags += 'p'
  if (type === S_IFSOCK) flags += 'S'
  if (mode & S_ISUID) flags += 'u'
  if (mode & S_ISGID) flags += 'g'
  if (type === S_IFCHR) flags += 'c'
  if (mode & S_ISVTX) flags += 't'
  const rwx = 'rwxrwxrwx'
  let perms = ''
  for (let i = 0; i < 9; i++) perms += mode & (1 << (8 - i)) ? rwx[i] : '-'
  return (flags || '-') + perms
}
