// Monaco's registry names a file's language once Monaco and the file are loaded; this guess, by
// the name alone, lets the server of a common language start while they load (a cold start
// waits for both otherwise). A file it does not know starts its server when it opens, as before.
const byExtension: Record<string, string> = {
  py: 'python',
  pyi: 'python',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
}

/** The editor language a file of this path will most likely have, if it is a common one. */
export function languageOfPath(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  return dot > 0 ? byExtension[name.slice(dot + 1).toLowerCase()] : undefined
}
