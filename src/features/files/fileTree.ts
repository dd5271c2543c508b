import { Subscribers } from '../../common/Subscribers'
import type { FileChange } from '../../sandbox/fileWatch'
import { type EntryInfo, EventType, FileType } from '../../sandbox/sandboxFiles'
import { sortNatural } from './naturalOrder'

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

interface DirState {
  children: Map<string, EntryInfo>
  /** Names in display order; undefined when it must be sorted again. */
  order: string[] | undefined
}

const isDirEntry = (e: EntryInfo) => e.type === FileType.DIRECTORY

/** The parent folder of an absolute path. */
export function parentOf(path: string): string {
  const at = path.lastIndexOf('/')
  return at <= 0 ? '/' : path.slice(0, at)
}

/** The last component of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

/**
 * The explorer's model: the listings of the folders that were loaded, which of them are
 * expanded, and the visible rows flattened for a virtualized list. Plain TypeScript: the view
 * subscribes to it; listings arrive from ListDir and live changes from the file watch.
 */
export class FileTree {
  private readonly dirs = new Map<string, DirState>()
  private readonly expanded = new Set<string>()
  private readonly loading = new Set<string>()
  private rows: TreeRow[] = []
  private readonly subscribers = new Subscribers()
  showHidden = false

  constructor(readonly root: string) {
    this.expanded.add(root)
  }

  subscribe = this.subscribers.add

  getSnapshot = (): TreeRow[] => this.rows

  /** Folders whose listing the view shows (expanded and loaded), to re-list after a resync. */
  visibleDirs(): string[] {
    return [...this.expanded].filter((d) => this.dirs.has(d))
  }

  isExpanded(path: string): boolean {
    return this.expanded.has(path)
  }

  isLoaded(path: string): boolean {
    return this.dirs.has(path)
  }

  /** Marks a folder as being listed (shows a spinner row state). */
  setLoading(path: string, loading: boolean): void {
    if (loading) this.loading.add(path)
    else this.loading.delete(path)
    this.changed()
  }

  /** Replaces a folder's listing with a fresh ListDir answer. */
  setListing(path: string, entries: EntryInfo[]): void {
    this.dirs.set(path, { children: new Map(entries.map((e) => [e.name, e])), order: undefined })
    this.loading.delete(path)
    this.changed()
  }

  expand(path: string): void {
    this.expanded.add(path)
    this.changed()
  }

  collapse(path: string): void {
    this.expanded.delete(path)
    this.changed()
  }

  /** Collapses everything below the root. */
  collapseAll(): void {
    this.expanded.clear()
    this.expanded.add(this.root)
    this.changed()
  }

  setShowHidden(show: boolean): void {
    this.showHidden = show
    this.changed()
  }

  /** The entry at a path, when its folder is loaded. */
  entry(path: string): EntryInfo | undefined {
    return this.dirs.get(parentOf(path))?.children.get(baseName(path))
  }

  /**
   * Applies a batch of watch changes to the loaded listings. Returns the paths whose entry the
   * event did not carry (a CREATE without include_entry), for the caller to Stat.
   */
  apply(changes: FileChange[]): string[] {
    const missing: string[] = []
    for (const change of changes) {
      const dir = this.dirs.get(parentOf(change.path))
      if (!dir) continue
      const name = baseName(change.path)
      if (change.type === EventType.REMOVE || change.type === EventType.RENAME) {
        if (dir.children.delete(name)) dir.order = undefined
        this.forget(change.path)
      } else if (
        change.type === EventType.CREATE ||
        change.type === EventType.WRITE ||
        change.type === EventType.CHMOD
      ) {
        if (change.entry) {
          if (!dir.children.has(name)) dir.order = undefined
          dir.children.set(name, change.entry)
        } else if (change.type === EventType.CREATE && !dir.children.has(name)) {
          missing.push(change.path)
        }
      }
    }
    this.changed()
    return missing
  }

  /** Adds or replaces one entry (after a Stat or an action of the explorer itself). */
  upsert(path: string, entry: EntryInfo): void {
    const dir = this.dirs.get(parentOf(path))
    if (!dir) return
    if (!dir.children.has(baseName(path))) dir.order = undefined
    dir.children.set(baseName(path), entry)
    this.changed()
  }

  /** Drops a path and everything known below it. */
  remove(path: string): void {
    const dir = this.dirs.get(parentOf(path))
    if (dir?.children.delete(baseName(path))) dir.order = undefined
    this.forget(path)
    this.changed()
  }

  private forget(path: string): void {
    const prefix = `${path}/`
    for (const key of [...this.dirs.keys()]) if (key === path || key.startsWith(prefix)) this.dirs.delete(key)
    for (const key of [...this.expanded])
      if (key === path || key.startsWith(prefix)) this.expanded.delete(key)
  }

  private ordered(dir: DirState): string[] {
    dir.order ??= sortNatural(dir.children.keys(), (name) => isDirEntry(dir.children.get(name) as EntryInfo))
    return dir.order
  }

  private changed(): void {
    const rows: TreeRow[] = []
    // Runs over every visible row at every change: a folder of 100,000 entries makes it the
    // explorer's hot loop, so only a folder's path is looked up in the sets of folders.
    const walk = (path: string, depth: number) => {
      const dir = this.dirs.get(path)
      if (!dir) return
      const ordered = this.ordered(dir)
      const names = this.showHidden ? ordered : ordered.filter((n) => !n.startsWith('.'))
      const prefix = path === '/' ? '/' : `${path}/`
      for (let index = 0; index < names.length; index++) {
        const name = names[index] as string
        const entry = dir.children.get(name) as EntryInfo
        const childPath = prefix + name
        const isDir = isDirEntry(entry)
        const expanded = isDir && this.expanded.has(childPath)
        rows.push({
          path: childPath,
          name,
          depth,
          isDir,
          isSymlink: entry.symlinkTarget !== undefined,
          expanded,
          loading: isDir && this.loading.has(childPath),
          index: index + 1,
          siblings: names.length,
          entry,
        })
        if (expanded) walk(childPath, depth + 1)
      }
    }
    walk(this.root, 1)
    this.rows = rows
    this.subscribers.notify()
  }
}
