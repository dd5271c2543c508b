import type { EntryInfo } from '../../sandbox/sandboxFiles'

/** What Stat says about a file's contents: size and modification time (to the nanosecond). */
export interface DiskVersion {
  size: bigint
  mtime: string
}

/** The version of a Stat or watch entry. */
export function versionOf(entry: EntryInfo): DiskVersion {
  const t = entry.modifiedTime
  return { size: entry.size, mtime: t ? `${t.seconds}.${String(t.nanos).padStart(9, '0')}` : '' }
}

/** Same size and same modification time. */
export function sameVersion(a: DiskVersion | undefined, b: DiskVersion | undefined): boolean {
  return !!a && !!b && a.size === b.size && a.mtime === b.mtime
}
