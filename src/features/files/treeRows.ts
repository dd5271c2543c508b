import type { EntryInfo } from '../../sandbox/sandboxFiles'
import { isDirEntry } from './folderListing'

/** One visible row of the tree. */
export interface TreeRow {
  path: string
  name: string
  depth: number
  isDir: boolean
  isSymlink: boolean
  expanded: boolean
  loading: boolean
  /** Position among its siblings, for aria-posinset / aria-setsize. */
  index: number
  siblings: number
  entry: EntryInfo
}

/** Consecutive rows that are consecutive entries of one folder: rows `start…` show `entries[from…to)`. */
export interface RowRun {
  start: number
  /** The folder's path with a trailing slash. */
  prefix: string
  depth: number
  /** The folder's visible entries, in display order (all of them, not only this run's). */
  entries: readonly EntryInfo[]
  from: number
  to: number
}

/** Which folders are open and which are being listed, as the rows were made. */
export interface FolderStates {
  expanded: ReadonlySet<string>
  loading: ReadonlySet<string>
}

/**
 * The tree's visible rows, made when asked for: a folder's entries in display order are a run of
 * rows, cut where an open subfolder's rows come in between. A folder of 100,000 entries is then
 * one run, not 100,000 objects, and the view (virtualized) asks only for the rows it draws.
 */
export class TreeRows implements Iterable<TreeRow> {
  constructor(
    private readonly runs: readonly RowRun[],
    readonly length: number,
    private readonly folders: FolderStates,
  ) {}

  /** The row at a position, or undefined past the ends. */
  at(index: number): TreeRow | undefined {
    const place = this.locate(index)
    return place && this.row(place.run, place.at)
  }

  /** The name shown at a position, without making its row (type-to-find passes many). */
  nameAt(index: number): string | undefined {
    const place = this.locate(index)
    return place && (place.run.entries[place.at] as EntryInfo).name
  }

  /** The run a position falls in, and its entry's index there. */
  private locate(index: number): { run: RowRun; at: number } | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined
    // The last run starting at or before `index`.
    let low = 0
    let high = this.runs.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((this.runs[middle] as RowRun).start <= index) low = middle
      else high = middle - 1
    }
    const run = this.runs[low] as RowRun
    return { run, at: run.from + index - run.start }
  }

  /** The position of a path's row, or -1 where it has none (not listed, or in a closed folder). */
  indexOf(path: string): number {
    const cut = path.lastIndexOf('/')
    const prefix = path.slice(0, cut + 1)
    const name = path.slice(cut + 1)
    for (const run of this.runs) {
      if (run.prefix !== prefix) continue
      for (let at = run.from; at < run.to; at++)
        if ((run.entries[at] as EntryInfo).name === name) return run.start + at - run.from
    }
    return -1
  }

  *[Symbol.iterator](): Iterator<TreeRow> {
    for (const run of this.runs) for (let at = run.from; at < run.to; at++) yield this.row(run, at)
  }

  private row(run: RowRun, at: number): TreeRow {
    const entry = run.entries[at] as EntryInfo
    const path = run.prefix + entry.name
    const isDir = isDirEntry(entry)
    return {
      path,
      name: entry.name,
      depth: run.depth,
      isDir,
      isSymlink: entry.symlinkTarget !== undefined,
      expanded: isDir && this.folders.expanded.has(path),
      loading: isDir && this.folders.loading.has(path),
      index: at + 1,
      siblings: run.entries.length,
      entry,
    }
  }
}
