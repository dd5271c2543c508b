/** A file URI for an absolute sandbox path, each segment percent-encoded (as servers write them). */
export function uriOfPath(path: string): string {
  return `file://${path.split('/').map(encodeURIComponent).join('/')}`
}

/** The sandbox path of a file URI; undefined for any other URI (a server's own `untitled:`…). */
export function pathOfUri(uri: string): string | undefined {
  if (!uri.startsWith('file://')) return undefined
  try {
    return decodeURIComponent(new URL(uri).pathname)
  } catch {
    return undefined
  }
}
