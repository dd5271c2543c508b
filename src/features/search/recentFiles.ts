/** How many recently opened files Go to File remembers, as VS Code's editor history. */
const maxRecent = 50

/** Files opened recently, most recent first (absolute paths): Go to File lists them first. */
export class RecentFiles {
  private paths: string[] = []

  /** A file was opened (or its tab shown). */
  opened(path: string): void {
    if (this.paths[0] === path) return
    this.paths = [path, ...this.paths.filter((p) => p !== path)].slice(0, maxRecent)
  }

  /** A file was renamed or moved: its place in the list follows it. */
  moved(from: string, to: string): void {
    this.paths = this.paths.map((p) => (p === from ? to : p))
  }

  list(): readonly string[] {
    return this.paths
  }
}
