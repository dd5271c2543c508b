import { type EntryInfo, FileType } from '../../sandbox/sandboxFiles'
import { sortNatural } from './naturalOrder'

export const isDirEntry = (entry: EntryInfo) => entry.type === FileType.DIRECTORY

/**
 * One folder's entries, as ListDir gave them and the watch changed them since, and their display
 * order. Shaped for the click that opens a folder of 100,000 entries: the entries are kept as they
 * came and sorted once, straight into the order the rows need; the by-name index (100,000 more map
 * entries) is built only when a watch change or a lookup first asks for a name.
 */
export class FolderListing {
  /** The listing as it came, until the by-name index takes its place. */
  private entries: readonly EntryInfo[]
  private byName: Map<string, EntryInfo> | undefined
  /** Every entry in display order; undefined when it must be sorted again. */
  private sorted: EntryInfo[] | undefined
  /** What the rows show: `sorted`, or `sorted` without dotfiles. */
  private shown: { hidden: boolean; entries: EntryInfo[] } | undefined

  constructor(entries: readonly EntryInfo[]) {
    this.entries = entries
  }

  private index(): Map<string, EntryInfo> {
    if (!this.byName) {
      this.byName = new Map(this.entries.map((entry) => [entry.name, entry]))
      this.entries = []
    }
    return this.byName
  }

  get(name: string): EntryInfo | undefined {
    return this.index().get(name)
  }

  has(name: string): boolean {
    return this.index().has(name)
  }

  /** Adds an entry or replaces the one of its name: in place where the order stays the same. */
  set(entry: EntryInfo): void {
    const index = this.index()
    const old = index.get(entry.name)
    index.set(entry.name, entry)
    if (old && isDirEntry(old) === isDirEntry(entry)) {
      // `shown` is `sorted` itself when dotfiles are shown: one scan, not two.
      for (const list of new Set([this.sorted, this.shown?.entries])) {
        const at = list ? list.indexOf(old) : -1
        if (list && at >= 0) list[at] = entry
      }
    } else {
      this.reorder()
    }
  }

  /** Removes the entry of a name; false when there was none. */
  delete(name: string): boolean {
    if (!this.index().delete(name)) return false
    this.reorder()
    return true
  }

  /** The entries the rows show, in display order: folders first, natural order, dotfiles only when `hidden`. */
  visible(hidden: boolean): readonly EntryInfo[] {
    if (this.shown?.hidden === hidden) return this.shown.entries
    this.sorted ??= sortNatural(this.byName ? this.byName.values() : this.entries, isDirEntry)
    const entries = hidden ? this.sorted : this.sorted.filter((entry) => !entry.name.startsWith('.'))
    this.shown = { hidden, entries }
    return entries
  }

  private reorder(): void {
    this.sorted = undefined
    this.shown = undefined
  }
}
