/** Where `path` is after `from` was renamed to `to` (a file, or a folder above it); undefined if unaffected. */
export function movedPath(path: string, from: string, to: string): string | undefined {
  if (path === from) return to
  if (path.startsWith(`${from}/`)) return to + path.slice(from.length)
  return undefined
}

/** The last segment of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

/** `path` is `root` or inside it. */
export function isAtOrUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`)
}
