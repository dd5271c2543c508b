import type { TextQuery } from './textQuery'

/**
 * How a glob of the "files to include/exclude" boxes is read, one rule for ripgrep, grep and the
 * page alike: `./src` counts from the top of the workspace, anything else at any depth (`*.ts`,
 * `src`, `src/gen`); a glob that names a folder covers what is in it.
 */
export function anchoredGlob(glob: string): string {
  let g = glob.trim().replace(/\/+$/, '')
  if (g.startsWith('./')) return `/${g.slice(2)}`
  if (g.startsWith('/') || g.startsWith('**/')) return g
  g = `**/${g}`
  return g
}

/** The ripgrep globs (`-g`) for the query's boxes, in order: later ones win, so excludes come last. */
export function ripgrepGlobs(query: Pick<TextQuery, 'include' | 'exclude'>): string[] {
  const args: string[] = []
  for (const glob of query.include ?? []) {
    const g = anchoredGlob(glob)
    args.push('-g', g, '-g', `${g}/**`)
  }
  for (const glob of query.exclude ?? []) args.push('-g', `!${anchoredGlob(glob)}`)
  return args
}

/** A glob's pattern as a regular expression over a whole relative path. */
function globSource(glob: string): string {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` is any number of folders, `**` at the end anything at all.
        if (glob[i + 2] === '/') {
          out += '(?:.*/)?'
          i += 2
        } else {
          out += '.*'
          i += 1
        }
      } else out += '[^/]*'
    } else if (c === '?') out += '[^/]'
    else if (c === '{') {
      const close = glob.indexOf('}', i)
      if (close === -1) out += '\\{'
      else {
        out += `(?:${glob
          .slice(i + 1, close)
          .split(',')
          .map(globSource)
          .join('|')})`
        i = close
      }
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 1)
      if (close === -1) out += '\\['
      else {
        const body = glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')
        out += `[${body}]`
        i = close
      }
    } else out += c.replace(/[.+^${}()|\\/]/g, '\\$&')
  }
  return out
}

/**
 * Whether a path (relative to the workspace's top, `/`-separated) is matched by one of `globs`
 * (read as `anchoredGlob` says), or lies in a folder that is: the page's own reading of the boxes,
 * for unsaved files, for grep (which matches names only) and for Go to File.
 */
export function globsMatcher(globs: readonly string[]): (relativePath: string) => boolean {
  if (globs.length === 0) return () => false
  const sources = globs.map((glob) => {
    const g = anchoredGlob(glob)
    return globSource(g.startsWith('/') ? g.slice(1) : g)
  })
  let regex: RegExp
  try {
    // `s`: a name may hold a newline, and `.*` must still cross it.
    regex = new RegExp(`^(?:${sources.join('|')})(?:/.*)?$`, 's')
  } catch {
    // A glob no regular expression can say (a stray bracket): it matches nothing, as ripgrep refuses it.
    return () => false
  }
  return (path) => regex.test(path)
}

/** Whether a relative path is one the query's boxes let through (included, if any are, and not excluded). */
export function queryPathFilter(
  query: Pick<TextQuery, 'include' | 'exclude'>,
): (relativePath: string) => boolean {
  const included = query.include?.length ? globsMatcher(query.include) : () => true
  const excluded = globsMatcher(query.exclude ?? [])
  return (path) => included(path) && !excluded(path)
}
