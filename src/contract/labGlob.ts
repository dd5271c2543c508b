// Globs of a lab manifest's `readOnly`, over paths relative to the home folder ('/' separated):
// `*` and `?` stay within one path segment, a `**` segment spans any number of them (none too),
// so `tests/**` covers the folder `tests` and everything in it. Everything else is literal.

const escapeRegExp = (text: string) => text.replace(/[.+^${}()|[\]\\]/g, '\\$&')

/** Drops a leading `./` and turns a trailing `/` into `/**` (the folder and what it holds). */
function normalize(glob: string): string {
  const trimmed = glob.replace(/^(\.\/)+/, '')
  return trimmed.endsWith('/') ? `${trimmed}**` : trimmed
}

/** The regular expression a glob stands for, anchored at both ends. */
export function globToRegExp(glob: string): RegExp {
  const segments = normalize(glob).split('/')
  let source = ''
  segments.forEach((segment, i) => {
    const first = i === 0
    const last = i === segments.length - 1
    if (segment === '**') {
      if (first && last) source += '.*'
      else if (first) source += '(?:[^/]+/)*'
      else if (last) source += '(?:/.*)?'
      else source += '(?:/[^/]+)*'
      return
    }
    const afterLeadingGlobstar = i === 1 && segments[0] === '**'
    if (!first && !afterLeadingGlobstar) source += '/'
    source += escapeRegExp(segment).replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')
  })
  return new RegExp(`^${source}$`)
}

/** The folder a glob names before its first wildcard ('' when it starts with one). */
function literalPrefix(glob: string): string {
  const segments = normalize(glob).split('/')
  const wild = segments.findIndex((s) => /[*?]/.test(s))
  return segments.slice(0, wild < 0 ? segments.length : wild).join('/')
}

/** The first glob that matches `path`, or that names something inside the folder `path`. */
export function protectingGlob(globs: readonly string[], path: string): string | undefined {
  return globs.find((glob) => {
    if (globToRegExp(glob).test(path)) return true
    const prefix = literalPrefix(glob)
    return path !== '' && (prefix === path || prefix.startsWith(`${path}/`))
  })
}
