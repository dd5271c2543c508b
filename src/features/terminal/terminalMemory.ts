import type { TerminalRecord } from './TerminalInstance'

/** Which terminals existed and how they were laid out, as a reload finds them again. */
export interface TerminalLayout {
  records: TerminalRecord[]
  /** The terminal ids of each tab, in order. */
  tabs: string[][]
  activeTabId?: string
}

/** What survives a reload: the layout, and the screens of the terminals in it. */
export interface RememberedTerminals extends TerminalLayout {
  screens: Record<string, string>
}

/**
 * What the terminals of one sandbox leave behind for the next visit, in the browser's storage
 * (never a secret: ids, tags and titles, and the text of screens the runtime cannot replay).
 */
export class TerminalMemory {
  constructor(
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'>,
    private readonly key: string,
  ) {}

  recall(): RememberedTerminals | undefined {
    try {
      const stored = JSON.parse(this.storage.getItem(this.key) ?? 'null')
      return stored && Array.isArray(stored.records) && Array.isArray(stored.tabs)
        ? { screens: {}, ...stored }
        : undefined
    } catch {
      return undefined
    }
  }

  /**
   * Keeps `layout`, with the screens `screenOf` gives; without it, the screens kept last time
   * (taking a screen means serializing a terminal: done when the page goes, not on every change).
   */
  keep(layout: TerminalLayout, screenOf?: (id: string) => string | undefined): void {
    const previous = screenOf ? undefined : this.recall()
    const screens: Record<string, string> = {}
    for (const { id } of layout.records) {
      const screen = screenOf ? screenOf(id) : previous?.screens[id]
      if (screen) screens[id] = screen
    }
    try {
      this.storage.setItem(this.key, JSON.stringify({ ...layout, screens }))
    } catch {
      // Over the storage quota: keep the terminals, drop the screens.
      this.storage.setItem(this.key, JSON.stringify({ ...layout, screens: {} }))
    }
  }
}
