// Size tiers for opening a file, decided from its Stat before any byte is read.

const mib = 1024 * 1024

/** Above this a text file opens in reduced mode (no highlighting, folding or minimap), with a banner. */
export const reducedModeBytes = 5 * mib

/** Above this a file is offered for download only: never read into the page as text. */
export const downloadOnlyBytes = 50 * mib

/** How a file of `size` bytes is opened. */
export function fileTier(size: number): 'full' | 'reduced' | 'download-only' {
  if (size > downloadOnlyBytes) return 'download-only'
  return size > reducedModeBytes ? 'reduced' : 'full'
}

/** A size for people: "812 B", "4.2 KB", "12.0 MB" (powers of 1024, as the limits are). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value.toFixed(1)} ${units[unit]}`
}
