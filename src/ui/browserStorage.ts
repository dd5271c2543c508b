/** Storage kept in memory: for this page's life only. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>()
  get length(): number {
    return this.items.size
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value))
  }
  removeItem(key: string): void {
    this.items.delete(key)
  }
  clear(): void {
    this.items.clear()
  }
}

function available(): Storage {
  try {
    const storage = window.localStorage
    storage.getItem('sandbox-ide:probe')
    return storage
  } catch {
    return new MemoryStorage()
  }
}

/**
 * localStorage, or memory where the browser denies it: an iframe on another site when
 * third-party storage is blocked. What it keeps (layout, theme, terminals) is a convenience,
 * so the IDE works the same without it and only forgets on reload.
 */
export const browserStorage: Storage = available()
