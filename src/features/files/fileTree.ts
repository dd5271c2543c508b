import { Subscribers } from '../../common/Subscribers'
import type { FileChange } from '../../sandbox/fileWatch'
import { type EntryInfo, EventType } from '../../sandbox/sandboxFiles'
import { FolderListing, isDirEntry } from './folderListing'
import { type RowRun, TreeRows } from './treeRows'

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
 * expanded, and the visible rows flattened for a virtualized list (made when the view asks for
 * them: TreeRows). Plain TypeScript: the view subscribes to it; listings arrive from ListDir and
 * live changes from the file watch.
 */
export class FileTree {
  private readonly dirs = new Map<string, FolderListing>()
  private readonly expanded = new Set<string>()
  private readonly loading = new Set<string>()
  private rows = new TreeRows([], 0, { expanded: new Set(), loading: new Set() })
  private readonly subscribers = new Subscribers()
  showHidden = false

  constructor(readonly root: string) {
    this.expanded.add(root)
  }

  subscribe = this.subscribers.add

  getSnapshot = (): TreeRows => this.rows

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
    this.dirs.set(path, new FolderListing(entries))
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
    return this.dirs.get(parentOf(path))?.get(baseName(path))
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
        dir.delete(name)
        this.forget(change.path)
      } else if (
        change.type === EventType.CREATE ||
        change.type === EventType.WRITE ||
        change.type === EventType.CHMOD
      ) {
        if (change.entry) {
          dir.set(change.entry)
        } else if (change.type === EventType.CREATE && !dir.has(name)) {
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
    dir.set(entry)
    this.changed()
  }

  /** Drops a path and everything known below it. */
  remove(path: string): void {
    this.dirs.get(parentOf(path))?.delete(baseName(path))
    this.forget(path)
    this.changed()
  }

  private forget(path: string): void {
    const prefix = `${path}/`
    for (const key of [...this.dirs.keys()]) if (key === path || key.startsWith(prefix)) this.dirs.delete(key)
    for (const key of [...this.expanded])
      if (key === path || key.startsWith(prefix)) this.expanded.delete(key)
  }

  private changed(): void {
    const runs: RowRun[] = []
    let count = 0
    const addRun = (run: Omit<RowRun, 'start'>) => {
      runs.push({ ...run, start: count })
      count += run.to - run.from
    }
    // Runs over every visible entry at every change: a folder of 100,000 entries makes it the
    // explorer's hot loop, so it reads one field per entry and makes nothing but a run per open folder.
    const walk = (path: string, depth: number) => {
      const entries = this.dirs.get(path)?.visible(this.showHidden)
      if (!entries) return
      const prefix = path === '/' ? '/' : `${path}/`
      let from = 0
      for (let at = 0; at < entries.length; at++) {
        const entry = entries[at] as EntryInfo
        if (!isDirEntry(entry) || !this.expanded.has(prefix + entry.name)) continue
        addRun({ prefix, depth, entries, from, to: at + 1 })
        from = at + 1
        walk(prefix + entry.name, depth + 1)
      }
      if (from < entries.length) addRun({ prefix, depth, entries, from, to: entries.length })
    }
    walk(this.root, 1)
    this.rows = new TreeRows(runs, count, {
      expanded: new Set(this.expanded),
      loading: new Set(this.loading),
    })
    this.subscribers.notify()
  }
}
