import { Subscribers } from '../../common/Subscribers'
import { EventType, type FileChange, type WatchNotice } from '../fileWatch'
import { FileType } from '../sandboxFiles'
import { LineSplitter } from './lineSplitter'
import { findFilesArgs, ripgrepFilesArgs } from './searchCommands'
import { commandNotFound, StreamedCommand } from './streamedCommand'
import type { SearchSession } from './TextSearch'

/** What Go to File picks from: every file of the workspace, by path relative to its folder. */
export interface FileListSnapshot {
  state: 'idle' | 'listing' | 'ready' | 'failed'
  /** The workspace's folder (the home), absolute; the paths are relative to it. */
  root: string | undefined
  /** `/`-separated, relative to `root`; replaced (never mutated) on every change. */
  paths: readonly string[]
  /** There were more files than the cap: the list holds the first found. */
  truncated: boolean
  /** Who listed them: `find` where ripgrep is missing (it reads no .gitignore). */
  engine: 'ripgrep' | 'find' | undefined
  /** Why the listing failed, in the runtime's or the program's words. */
  error: string | undefined
}

/** How the file list is made: its cap, the programs, how often it lists again. */
export interface WorkspaceFilesOptions {
  /** At most this many paths are kept (200,000 by default): past that, memory buys little. */
  maxFiles?: number
  /** The programs run; a test names one that is not there to see the fallback. */
  ripgrep?: string
  find?: string
  /** How long a burst of changes the watch cannot place settles before a fresh listing, and the least time between two. */
  relistDelayMs?: number
  relistEveryMs?: number
}

/** The watch as the list follows it. */
export interface WatchSource {
  subscribe(listener: (notice: WatchNotice) => void): () => void
}

const initial: FileListSnapshot = {
  state: 'idle',
  root: undefined,
  paths: [],
  truncated: false,
  engine: undefined,
  error: undefined,
}

/** The folder part of a relative path ('' at the top). */
function folderOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash === -1 ? '' : path.slice(0, slash)
}

/** What a listing leaves out (searchCommands): the home's own dot-entries at the top, `.git` anywhere. */
function leftOut(relative: string): boolean {
  return relative.startsWith('.') || relative.split('/').includes('.git')
}

/**
 * Every file of the workspace for Go to File: listed once when first wanted (`rg --files`, so
 * .gitignore counts; the home's dot-folders and `.git` left out, a project's dotfiles kept, as
 * in Find in Files), then kept live by the file watch: a removed or renamed path goes at once, a
 * new file in a folder already listed comes at once; what the watch cannot place (a new folder, a
 * file where nothing was listed, which .gitignore may cover) is settled by listing again after
 * the burst, at most every few seconds, and a folder that listing again still leaves out is not
 * asked about again (node_modules during an install). `find` where ripgrep is missing.
 */
export class WorkspaceFiles {
  private snapshot = initial
  private readonly subscribers = new Subscribers()
  private readonly set = new Set<string>()
  /** How many listed files each folder holds: a new file in a folder with some is taken as listed. */
  private readonly folders = new Map<string, number>()
  /** Folders a fresh listing left out though the watch saw files made there. */
  private readonly ignoredFolders = new Set<string>()
  /** Folders that asked for the listing under way or the next one. */
  private unplaced = new Set<string>()
  private listing: StreamedCommand | undefined
  private relistTimer: ReturnType<typeof setTimeout> | undefined
  private lastListed = 0
  private stopWatch: (() => void) | undefined
  private disposed = false

  constructor(
    private readonly session: SearchSession,
    private readonly watch: WatchSource,
    private readonly options: WorkspaceFilesOptions = {},
  ) {}

  subscribe = this.subscribers.add

  getSnapshot = (): FileListSnapshot => this.snapshot

  /** Lists the files if that has not begun (Go to File opened): later calls do nothing. */
  ensure(): void {
    if (this.snapshot.state !== 'idle' || this.disposed) return
    this.stopWatch = this.watch.subscribe((notice) => this.follow(notice))
    void this.list()
  }

  /** Lists again now (after a failure). */
  refresh(): void {
    if (this.disposed) return
    if (!this.stopWatch) this.stopWatch = this.watch.subscribe((notice) => this.follow(notice))
    void this.list()
  }

  dispose(): void {
    this.disposed = true
    this.stopWatch?.()
    this.listing?.kill()
    clearTimeout(this.relistTimer)
    this.subscribers.clear()
  }

  private update(patch: Partial<FileListSnapshot>): void {
    if (this.disposed) return
    this.snapshot = { ...this.snapshot, ...patch }
    this.subscribers.notify()
  }

  private async list(): Promise<void> {
    this.listing?.kill()
    clearTimeout(this.relistTimer)
    this.relistTimer = undefined
    const asked = this.unplaced
    this.unplaced = new Set()
    this.lastListed = performance.now()
    if (this.snapshot.state !== 'ready') this.update({ state: 'listing', error: undefined })
    try {
      const root = this.snapshot.root ?? (await this.session.files.home())
      if (!root) throw new Error('the sandbox did not say where its home folder is')
      let result = await this.run(root, this.options.ripgrep ?? 'rg', ripgrepFilesArgs())
      let engine: FileListSnapshot['engine'] = 'ripgrep'
      if (result?.exitCode === commandNotFound) {
        result = await this.run(root, this.options.find ?? 'find', findFilesArgs())
        engine = 'find'
      }
      if (!result || this.disposed) return
      if (result.exitCode === commandNotFound)
        throw new Error('Neither ripgrep (rg) nor find is installed in the sandbox.')
      this.set.clear()
      this.folders.clear()
      for (const path of result.paths) this.add(path)
      for (const folder of asked) if (!this.folders.has(folder)) this.ignoredFolders.add(folder)
      this.update({
        state: 'ready',
        root,
        paths: [...this.set],
        truncated: result.truncated,
        engine,
        error: undefined,
      })
    } catch (err) {
      this.update({ state: 'failed', error: err instanceof Error ? err.message : String(err) })
    }
  }

  /** Runs one lister to its end; undefined when a newer listing took over. */
  private async run(
    root: string,
    program: string,
    args: string[],
  ): Promise<{ paths: string[]; truncated: boolean; exitCode: number | undefined } | undefined> {
    const max = this.maxFiles
    const paths: string[] = []
    const splitter = new LineSplitter(0)
    const decoder = new TextDecoder()
    let truncated = false
    let stderr = ''
    const take = (bytes: Uint8Array) => {
      if (paths.length >= max) return
      const path = decoder.decode(bytes)
      paths.push(path.startsWith('./') ? path.slice(2) : path)
      if (paths.length >= max) {
        truncated = true
        command.kill()
      }
    }
    const command = new StreamedCommand(
      this.session,
      { program, args, cwd: root, tag: 'ide-files' },
      {
        stdout: (bytes) => {
          for (const piece of splitter.push(bytes)) take(piece)
        },
        stderr: (bytes) => {
          if (stderr.length < 4000) stderr += decoder.decode(bytes)
        },
      },
    )
    this.listing = command
    const end = await command.ended
    if (this.listing !== command) return undefined
    this.listing = undefined
    const rest = splitter.end()
    if (rest && !end.killed) take(rest)
    if (end.killed && !truncated) return undefined
    // 1: ripgrep found no file at all; 2 (or find's 1) with paths: some folders could not be read.
    if (
      end.exitCode !== 0 &&
      end.exitCode !== commandNotFound &&
      paths.length === 0 &&
      !truncated &&
      stderr.trim()
    )
      throw new Error(stderr.trim())
    return { paths, truncated, exitCode: end.exitCode }
  }

  private get maxFiles(): number {
    return this.options.maxFiles ?? 200_000
  }

  private add(path: string): boolean {
    // At the cap the list stays as it is: the watch's new files wait for a narrower workspace.
    if (this.set.has(path) || this.set.size >= this.maxFiles) return false
    this.set.add(path)
    const folder = folderOf(path)
    this.folders.set(folder, (this.folders.get(folder) ?? 0) + 1)
    return true
  }

  private remove(path: string): boolean {
    if (!this.set.delete(path)) return false
    const folder = folderOf(path)
    const left = (this.folders.get(folder) ?? 1) - 1
    if (left > 0) this.folders.set(folder, left)
    else this.folders.delete(folder)
    return true
  }

  private follow(notice: WatchNotice): void {
    const root = this.snapshot.root
    if (this.snapshot.state !== 'ready' || !root) return
    if (notice.kind === 'resync') {
      this.scheduleRelist()
      return
    }
    let changed = false
    for (const change of notice.changes) changed = this.apply(root, change) || changed
    if (changed) this.update({ paths: [...this.set] })
  }

  private apply(root: string, change: FileChange): boolean {
    if (!change.path.startsWith(`${root}/`)) return false
    const relative = change.path.slice(root.length + 1)
    if (change.type === EventType.REMOVE || change.type === EventType.RENAME) {
      if (this.remove(relative)) return true
      // A folder: everything listed under it goes.
      const prefix = `${relative}/`
      let removed = false
      for (const path of [...this.set]) if (path.startsWith(prefix)) removed = this.remove(path) || removed
      return removed
    }
    if (change.type !== EventType.CREATE || leftOut(relative)) return false
    const folder = change.entry?.type === FileType.DIRECTORY ? relative : folderOf(relative)
    if (this.isIgnored(folder)) return false
    if (change.entry?.type === FileType.FILE && (folder === '' || this.folders.has(folder)))
      return this.add(relative)
    // A new folder, or a file where nothing is listed (.gitignore may cover it): a fresh listing says.
    this.unplaced.add(folder)
    this.scheduleRelist()
    return false
  }

  private isIgnored(folder: string): boolean {
    for (let f = folder; f !== ''; f = folderOf(f)) if (this.ignoredFolders.has(f)) return true
    return false
  }

  private scheduleRelist(): void {
    if (this.disposed) return
    clearTimeout(this.relistTimer)
    const delay = this.options.relistDelayMs ?? 1000
    const every = this.options.relistEveryMs ?? 5000
    const wait = Math.max(delay, every - (performance.now() - this.lastListed))
    this.relistTimer = setTimeout(() => void this.list(), wait)
  }
}
