import type { SandboxFiles } from '../sandboxFiles'
import { GrepOutputParser } from './grepOutputParser'
import { RipgrepJsonParser } from './ripgrepJsonParser'
import { grepArgs, ripgrepArgs } from './searchCommands'
import { queryPathFilter } from './searchGlobs'
import { type CommandEnd, type CommandSession, commandNotFound, StreamedCommand } from './streamedCommand'
import { findInText, queryRegExp } from './textMatcher'
import { defaultMaxResults, type FileMatches, type TextQuery } from './textQuery'

/** Which program searched: grep only where ripgrep is missing (slower, and it reads no .gitignore). */
export type SearchEngine = 'ripgrep' | 'grep'

/** How a search ended. */
export interface SearchOutcome {
  engine: SearchEngine
  /** Matches and files found (the unsaved files' included). */
  matches: number
  files: number
  /** It stopped at the cap (`maxResults`): there are more; refine the search. */
  limitHit: boolean
  /** It was cancelled (Escape, or a new query): what came so far is all there is. */
  cancelled: boolean
  /** What the engine could not read (a folder without permission), in its own words; at most 20. */
  warnings: string[]
}

/** The query cannot be searched for (an invalid regular expression): the engine's own words, to show by the box. */
export class SearchQueryError extends Error {}

/** One search under way. */
export interface SearchRun {
  /** Settles when it ends; rejects with a SearchQueryError or a SandboxError (not connected, the runtime's failure). */
  readonly done: Promise<SearchOutcome>
  /** Stops it now: its process is killed at once. */
  cancel(): void
}

/** What the search needs of a session. */
export type SearchSession = CommandSession & { readonly files: Pick<SandboxFiles, 'home'> }

/** How a TextSearch is made: where unsaved text comes from, the folder, the programs. */
export interface TextSearchOptions {
  /** The text of open files with unsaved changes, by absolute path: searched as the editor holds them. */
  unsavedText?: () => ReadonlyMap<string, string>
  /** The folder searched; the sandbox user's home by default. */
  root?: string
  /** The programs run; a test names one that is not there to see the fallback. */
  ripgrep?: string
  grep?: string
}

/** Results go out at once after a quiet spell, else in batches this far apart: a flood costs one render each. */
const batchMs = 50
const maxWarnings = 20
const maxStderr = 20_000

/**
 * Find in Files: ripgrep (`rg --json`) run in the sandbox through the runtime's `Start`, its output
 * parsed as bytes as it streams, results handed over in batches as files are found; grep where
 * ripgrep is missing (exit 127), saying so. Open files with unsaved changes are searched in the
 * page, as the editor holds them, and their disk results are left out. One search at a time: a new
 * one (or `cancel`) kills the last one's process at once.
 */
export class TextSearch {
  private current: { cancel(): void } | undefined
  private root: Promise<string> | undefined

  constructor(
    private readonly session: SearchSession,
    private readonly options: TextSearchOptions = {},
  ) {}

  /** The searched folder (the home), once known. */
  folder(): Promise<string> {
    if (this.options.root) return Promise.resolve(this.options.root)
    this.root ??= this.session.files.home().then((home) => {
      if (!home) throw new Error('the sandbox did not say where its home folder is')
      return home
    })
    this.root.catch(() => {
      this.root = undefined
    })
    return this.root
  }

  /** Searches for `query`, cancelling the search before; `onResults` gets files as they are found. */
  search(query: TextQuery, onResults: (files: FileMatches[]) => void): SearchRun {
    this.current?.cancel()
    const run = new Run(this.session, this.options, () => this.folder(), query, onResults)
    this.current = run
    return run
  }

  /** Cancels the search under way, if any. */
  cancel(): void {
    this.current?.cancel()
    this.current = undefined
  }

  dispose(): void {
    this.cancel()
  }
}

/** Whether a path under the searched folder is one a search leaves out unless asked (see searchCommands). */
function leftOutUnlessAsked(relative: string): boolean {
  return relative.startsWith('.') || relative.split('/').includes('.git')
}

class Run implements SearchRun {
  readonly done: Promise<SearchOutcome>
  private cancelled = false
  private command: StreamedCommand | undefined
  private pending: FileMatches[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  private lastFlush = 0
  private files = 0
  private matches = 0

  constructor(
    private readonly session: CommandSession,
    private readonly options: TextSearchOptions,
    private readonly folder: () => Promise<string>,
    private readonly query: TextQuery,
    private readonly onResults: (files: FileMatches[]) => void,
  ) {
    this.done = this.run().finally(() => this.flush())
    this.done.catch(() => {})
  }

  cancel(): void {
    this.cancelled = true
    this.command?.kill()
    clearTimeout(this.timer)
    this.pending = []
  }

  private outcome(engine: SearchEngine, limitHit: boolean, warnings: string[]): SearchOutcome {
    return {
      engine,
      matches: this.matches,
      files: this.files,
      limitHit,
      cancelled: this.cancelled,
      warnings,
    }
  }

  private async run(): Promise<SearchOutcome> {
    const max = this.query.maxResults ?? defaultMaxResults
    if (!this.query.pattern) return this.outcome('ripgrep', false, [])
    const root = await this.folder()
    if (this.cancelled) return this.outcome('ripgrep', false, [])
    const unsaved = this.searchUnsaved(root, max)
    const remaining = max - this.matches
    if (remaining <= 0) return this.outcome('ripgrep', true, [])
    const searched = (path: string) => !unsaved.has(path)

    const rg = await this.runEngine(root, {
      program: this.options.ripgrep ?? 'rg',
      args: ripgrepArgs(this.query),
      parser: new RipgrepJsonParser(root, remaining, (file) => this.found(file), searched),
    })
    if (rg.end.exitCode !== commandNotFound) return this.finish('ripgrep', rg, root)

    // No ripgrep: grep, its paths filtered by the boxes in the page.
    let regex: RegExp | undefined
    try {
      regex = queryRegExp(this.query)
    } catch {
      regex = undefined
    }
    const keep = queryPathFilter(this.query)
    const relative = (path: string) => path.slice(root.length + 1)
    const grep = await this.runEngine(root, {
      program: this.options.grep ?? 'grep',
      args: grepArgs(this.query, root),
      parser: new GrepOutputParser(
        regex,
        remaining,
        (file) => this.found(file),
        (path) => searched(path) && keep(relative(path)),
      ),
    })
    if (grep.end.exitCode === commandNotFound)
      throw new Error('Neither ripgrep (rg) nor grep is installed in the sandbox, so it cannot be searched.')
    return this.finish('grep', grep, root)
  }

  /** Runs one engine to its end (or the cap, or a cancel); what it printed on stderr is kept. */
  private async runEngine(
    root: string,
    engine: {
      program: string
      args: string[]
      parser: { push(bytes: Uint8Array): void; end(): void; limitHit: boolean }
    },
  ): Promise<{ end: CommandEnd; stderr: string; limitHit: boolean }> {
    const decoder = new TextDecoder()
    let stderr = ''
    const { parser } = engine
    const command = new StreamedCommand(
      this.session,
      { program: engine.program, args: engine.args, cwd: root, tag: 'ide-search' },
      {
        stdout: (bytes) => {
          parser.push(bytes)
          // The cap: no need for the rest, and ripgrep may have much more to say.
          if (parser.limitHit) command.kill()
        },
        stderr: (bytes) => {
          if (stderr.length < maxStderr) stderr += decoder.decode(bytes, { stream: true })
        },
      },
    )
    this.command = command
    if (this.cancelled) command.kill()
    const end = await command.ended
    if (!end.killed) parser.end()
    return { end, stderr, limitHit: parser.limitHit }
  }

  private finish(
    engine: SearchEngine,
    { end, stderr, limitHit }: { end: CommandEnd; stderr: string; limitHit: boolean },
    root: string,
  ): SearchOutcome {
    if (end.killed) return this.outcome(engine, limitHit, [])
    // 0: found, 1: nothing found, 2: an error (which may be only some files it could not read).
    const lines = stderr.split('\n').filter((line) => line.trim())
    const aboutAFile = (line: string) => {
      const text = line.replace(/^(rg|grep): /, '')
      return text.startsWith('./') || text.startsWith(`${root}/`)
    }
    const warnings = lines.filter(aboutAFile).slice(0, maxWarnings)
    if (end.exitCode === 0 || end.exitCode === 1) return this.outcome(engine, limitHit, warnings)
    if (end.exitCode === 2) {
      const problem = lines.filter((line) => !aboutAFile(line))
      if (problem.length === 0) return this.outcome(engine, limitHit, warnings)
      throw new SearchQueryError(problem.join('\n').replace(/^(rg|grep): /, ''))
    }
    throw new Error(`The search ended unexpectedly (${end.status})${stderr ? `: ${stderr.trim()}` : ''}`)
  }

  /** Searches the unsaved files in the page; answers the paths whose disk results are left out. */
  private searchUnsaved(root: string, max: number): Set<string> {
    const texts = this.options.unsavedText?.()
    const searched = new Set<string>()
    if (!texts?.size) return searched
    let regex: RegExp
    try {
      regex = queryRegExp(this.query)
    } catch {
      // ripgrep's syntax the page cannot read: those files are searched on disk instead.
      return searched
    }
    const keep = queryPathFilter(this.query)
    for (const [path, text] of texts) {
      if (!path.startsWith(`${root}/`)) continue
      const relative = path.slice(root.length + 1)
      if (!keep(relative) || (!this.query.includeIgnored && leftOutUnlessAsked(relative))) continue
      searched.add(path)
      const matches = findInText(text, regex, max - this.matches)
      if (matches.length) this.found({ path, matches, unsaved: true })
      if (this.matches >= max) break
    }
    return searched
  }

  private found(file: FileMatches): void {
    if (this.cancelled) return
    this.files += 1
    this.matches += file.matches.length
    this.pending.push(file)
    if (this.timer) return
    const wait = Math.max(0, batchMs - (performance.now() - this.lastFlush))
    this.timer = setTimeout(() => this.flush(), wait)
  }

  private flush(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.lastFlush = performance.now()
    if (this.cancelled || this.pending.length === 0) return
    const batch = this.pending
    this.pending = []
    this.onResults(batch)
  }
}
