import { ripgrepGlobs } from './searchGlobs'
import type { TextQuery } from './textQuery'

/**
 * What every listing leaves out: `.git` always (never what anyone looks for); unless asked, the
 * home's own dot-folders and dotfiles (`.cache`, `.npm`, `.local`, `.bashrc`: tools' state,
 * thousands of files no project owns), anchored to the top so a project's `.github` or
 * `.eslintrc` is still found, as VS Code finds them. ripgrep runs in the workspace on `.` for
 * the anchor to hold.
 */
function ripgrepScope(includeIgnored: boolean): string[] {
  return [
    '--hidden',
    '-g',
    '!.git',
    // .gitignore counts in a folder that is not (yet) a repository too: a lab's files, a fresh project.
    ...(includeIgnored ? ['--no-ignore'] : ['--no-require-git', '-g', '!/.*']),
  ]
}

/** ripgrep's arguments for a text search (run in the workspace's folder). */
export function ripgrepArgs(query: TextQuery): string[] {
  return [
    '--json',
    // A user's RIPGREP_CONFIG_PATH must not change what the view parses.
    '--no-config',
    ...(query.isRegex ? [] : ['--fixed-strings']),
    query.matchCase ? '--case-sensitive' : '--ignore-case',
    ...(query.wholeWord ? ['--word-regexp'] : []),
    ...ripgrepScope(!!query.includeIgnored),
    ...ripgrepGlobs(query),
    // `-e` keeps a pattern that starts with `-` a pattern.
    '-e',
    query.pattern,
    '--',
    '.',
  ]
}

/** ripgrep's arguments for every file of the workspace (Go to File), NUL-separated. */
export function ripgrepFilesArgs(): string[] {
  return ['--files', '--no-config', '--null', ...ripgrepScope(false), '--', '.']
}

/**
 * grep's arguments where ripgrep is missing. grep reads no .gitignore, so unless asked it skips
 * node_modules and every dot-folder (it cannot anchor one to the top); it matches globs against
 * base names only, so only name patterns go to it (`*.ts` to include, `dist` to exclude), and the
 * page applies the boxes to what it finds. `-Z` ends each path with NUL, so any name is read whole.
 */
export function grepArgs(query: TextQuery, root: string): string[] {
  const nameOnly = (glob: string) => !glob.includes('/')
  const namePattern = (glob: string) => nameOnly(glob) && glob.includes('*')
  const includes = query.include ?? []
  return [
    '-r',
    '-n',
    '-I',
    '-H',
    '-Z',
    '--color=never',
    query.isRegex ? '-E' : '-F',
    ...(query.matchCase ? [] : ['-i']),
    ...(query.wholeWord ? ['-w'] : []),
    '--exclude-dir=.git',
    ...(query.includeIgnored ? [] : ['--exclude-dir=node_modules', '--exclude-dir=.*', '--exclude=.*']),
    // Only when every include is one: grep's includes narrow, and the page can widen nothing back.
    ...(includes.length && includes.every(namePattern) ? includes.map((glob) => `--include=${glob}`) : []),
    ...(query.exclude ?? [])
      .filter(nameOnly)
      .flatMap((glob) => [`--exclude=${glob}`, `--exclude-dir=${glob}`]),
    '-e',
    query.pattern,
    '--',
    root,
  ]
}

/** find's arguments for every file of the workspace where ripgrep is missing (Go to File). */
export function findFilesArgs(): string[] {
  return [
    '.',
    '(',
    '-path',
    './.*',
    '-o',
    '-name',
    '.git',
    '-o',
    '-name',
    'node_modules',
    ')',
    '-prune',
    '-o',
    '-type',
    'f',
    '-print0',
  ]
}
