import { DisposableStore, toDisposable } from '../../common/lifecycle'
import { Subscribers } from '../../common/Subscribers'
import type { WatchNotice } from '../fileWatch'
import type { SandboxSession } from '../SandboxSession'
import { type GitArg, type GitResult, type GitRunner, sandboxGitRunner } from './gitCommand'
import { type ChangeLetter, type GitChange, type GitStatus, letterStrength, parseStatus } from './gitStatus'

/** Where the workspace's folder stands with git. */
export type SourceControlState =
  /** Not looked yet (the sandbox is not running, or the first status is on its way). */
  | { kind: 'starting' }
  /** There is no git in the sandbox. */
  | { kind: 'missing' }
  /** The folder is no repository (Initialize Repository). */
  | { kind: 'none'; folder: string }
  /** Git failed to say (a repository owned by someone else, a broken one): its own words. */
  | { kind: 'error'; folder: string; message: string }
  | {
      kind: 'repository'
      /** The repository's top folder (absolute): `git rev-parse --show-toplevel`. */
      root: string
      status: GitStatus
      /** The names of its remotes (Pull and Push are offered where there is one). */
      remotes: string[]
    }

/** What the view renders: replaced, never mutated, on every change. */
export interface SourceControlSnapshot {
  state: SourceControlState
  /**
   * Every changed file by absolute path, with its letter, and every folder that holds one, with
   * the strongest of theirs: what the explorer and the editor's tabs colour, one lookup per row.
   */
  decorations: ReadonlyMap<string, ChangeLetter>
  /** What runs now ("Committing"), while an action runs. */
  busy: string | undefined
}

/** A git command that failed, with what git printed. */
export class GitError extends Error {
  constructor(
    message: string,
    /** 'identity': a commit needs an author (user.name and user.email) first. */
    readonly kind: 'identity' | 'failed' = 'failed',
  ) {
    super(message)
  }
}

/** Which version of a file to read. */
export type GitSide = 'HEAD' | 'index'

/** What SourceControl needs of a session: how to reach the sandbox and whether it runs. */
export type SourceControlSession = Pick<SandboxSession, 'files' | 'getSnapshot' | 'subscribe'>

/** What it follows of the file watch. */
export interface WatchSource {
  subscribe(listener: (notice: WatchNotice) => void): () => void
}

/** The watch's changes are gathered this long before a status (and a status never runs twice at once). */
const settleMs = 300
/** Diffs read at most this much of a version (the editor offers bigger files for download only). */
const maxFileBytes = 50 * 1024 * 1024
/** Status in a big repository may take a while; pull and push wait on the network. */
const statusTimeoutMs = 120_000
const networkTimeoutMs = 300_000

const decoder = new TextDecoder()
const encoder = new TextEncoder()
/** Git's output as shown: its last newline gone. */
const printed = (result: GitResult) => result.stderr.trim() || decoder.decode(result.stdout).trim()
const identityMissing = /Please tell me who you are|Author identity unknown|empty ident name/

/** Files in `.git` whose change changes what the view shows (the index, HEAD, branches, remotes, a merge). */
const gitStateFile = /^\.git\/(index|HEAD|MERGE_HEAD|packed-refs|config|refs\/.*)$/

/**
 * Source control for the workspace's folder (the explorer's home), with the git CLI in the
 * sandbox: its status in VS Code's groups, the versions of a file in HEAD and the index, and the
 * actions of VS Code's view (stage, unstage, discard, commit, amend, init, pull, push). Status
 * runs when the file watch sees the index, HEAD or a working-tree file change (gathered for
 * 300 ms), never on a timer; one at a time, and a request made while one runs runs once after
 * it. Actions run one after the other and refresh the status when done.
 */
export class SourceControl {
  private snapshot: SourceControlSnapshot = {
    state: { kind: 'starting' },
    decorations: new Map(),
    busy: undefined,
  }
  private readonly subscribers = new Subscribers()
  private readonly disposables = new DisposableStore()
  private readonly run: GitRunner
  private folder: string | undefined
  private root: string | undefined
  private running: Promise<void> | undefined
  private again = false
  private timer: ReturnType<typeof setTimeout> | undefined
  private actions: Promise<unknown> = Promise.resolve()
  private disposed = false

  constructor(
    private readonly session: SourceControlSession,
    watch: WatchSource,
    runner?: GitRunner,
  ) {
    this.run = runner ?? sandboxGitRunner(session as SandboxSession)
    this.disposables.add(toDisposable(watch.subscribe((notice) => this.watched(notice))))
    this.disposables.add(toDisposable(() => clearTimeout(this.timer)))
    let wasRunning = false
    const follow = () => {
      const running = session.getSnapshot().state.kind === 'running'
      if (running && !wasRunning) void this.refresh()
      wasRunning = running
    }
    this.disposables.add(toDisposable(session.subscribe(follow)))
    follow()
  }

  subscribe = this.subscribers.add

  getSnapshot = (): SourceControlSnapshot => this.snapshot

  /** Reads the status again; resolves once a status begun after this call has been read. */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      try {
        do {
          this.again = false
          await this.readStatus()
        } while (this.again && !this.disposed)
      } finally {
        this.running = undefined
      }
    })()
    return this.running
  }

  /** Stages files (`git add`): a conflict's file is marked resolved so. */
  stage(changes: readonly GitChange[]): Promise<void> {
    return this.action('Staging', () => this.git(['add', '--', ...paths(changes)]))
  }

  /** Stages everything, new files included (`git add -A`). */
  stageAll(): Promise<void> {
    return this.action('Staging', () => this.git(['add', '-A']))
  }

  /** Takes files out of the index, their changes kept in the working tree; before the first commit, `git rm --cached`. */
  unstage(changes: readonly GitChange[]): Promise<void> {
    const targets = paths(changes, true)
    return this.action('Unstaging', () =>
      this.hasCommits()
        ? this.git(['restore', '--staged', '--', ...targets])
        : this.git(['rm', '--cached', '-r', '-q', '--', ...targets]),
    )
  }

  /**
   * Throws away unstaged changes: a tracked file gets the index's version back (`git restore`),
   * an untracked one is deleted (`git clean`, which takes any file name's bytes). Ask first.
   */
  discard(changes: readonly GitChange[]): Promise<void> {
    const tracked = changes.filter((c) => c.group === 'changes')
    const untracked = changes.filter((c) => c.group === 'untracked')
    return this.action('Discarding', async () => {
      if (tracked.length) await this.git(['restore', '--', ...paths(tracked)])
      if (untracked.length) await this.git(['clean', '-f', '-q', '--', ...paths(untracked)])
    })
  }

  /**
   * Commits the index with `message` (given on stdin, never in a command line); `amend` replaces
   * the last commit (an empty message keeps its message); `stageAll` stages everything first.
   * A GitError of kind 'identity' when git knows no author: `setAuthor`, then commit again.
   */
  commit(
    message: string,
    { amend = false, stageAll = false }: { amend?: boolean; stageAll?: boolean } = {},
  ): Promise<void> {
    const keepMessage = amend && message.trim() === ''
    if (!keepMessage && message.trim() === '')
      return Promise.reject(new GitError('The commit message is empty.'))
    return this.action('Committing', async () => {
      if (stageAll) await this.git(['add', '-A'])
      const args = [
        'commit',
        '-q',
        ...(amend ? ['--amend'] : []),
        ...(keepMessage ? ['--no-edit'] : ['-F', '-']),
      ]
      const result = await this.runHere(args, keepMessage ? {} : { input: encoder.encode(message) })
      if (result.exitCode !== 0) {
        const text = printed(result)
        throw new GitError(text, identityMissing.test(text) ? 'identity' : 'failed')
      }
    })
  }

  /** Sets the author of this sandbox's commits (`git config --global`, in the user's home). */
  setAuthor(name: string, email: string): Promise<void> {
    if (!name.trim() || !email.trim())
      return Promise.reject(new GitError('Both a name and an email are needed.'))
    return this.action('Setting the author', async () => {
      await this.git(['config', '--global', 'user.name', name.trim()])
      await this.git(['config', '--global', 'user.email', email.trim()])
    })
  }

  /** Makes the workspace's folder a repository (`git init`). */
  init(): Promise<void> {
    return this.action('Initializing', async () => {
      const folder = await this.workspaceFolder()
      const result = await this.run(['init', '-q'], { cwd: folder })
      if (result.exitCode !== 0) throw new GitError(printed(result))
      this.root = undefined
    })
  }

  /** `git pull` from the branch's upstream; git's own words when it cannot. */
  pull(): Promise<void> {
    return this.action('Pulling', () => this.git(['pull', '--no-edit'], networkTimeoutMs))
  }

  /** `git push`; a branch without an upstream is pushed to `origin` (or the one remote) and tracks it. */
  push(): Promise<void> {
    return this.action('Pushing', async () => {
      const state = this.snapshot.state
      const remotes = state.kind === 'repository' ? state.remotes : []
      const branch = state.kind === 'repository' ? state.status.branch : undefined
      const remote = remotes.includes('origin') ? 'origin' : remotes[0]
      const args = branch?.name && !branch.upstream && remote ? ['push', '-u', remote, 'HEAD'] : ['push']
      await this.git(args, networkTimeoutMs)
    })
  }

  /**
   * A file's bytes in HEAD or in the index (`git cat-file blob`, exactly as stored); undefined
   * when it is not there (a new file, no commit yet). `path` is relative to the repository's top.
   */
  async read(side: GitSide, path: GitArg): Promise<Uint8Array | undefined> {
    const root = this.root
    if (!root) return undefined
    const prefix = encoder.encode(side === 'HEAD' ? 'HEAD:' : ':0:')
    const bytes = typeof path === 'string' ? encoder.encode(path) : path
    const spec = new Uint8Array(prefix.length + bytes.length)
    spec.set(prefix)
    spec.set(bytes, prefix.length)
    const result = await this.run(['cat-file', 'blob', spec], { cwd: root, maxBytes: maxFileBytes })
    if (result.truncated)
      throw new GitError(`it is over ${maxFileBytes / 1024 / 1024} MB, too big to compare`)
    return result.exitCode === 0 ? result.stdout : undefined
  }

  /** A file's path relative to the repository's top; undefined when it is outside (or there is none). */
  relativePath(absolute: string): string | undefined {
    const top = this.root && below(this.root)
    return top && absolute.startsWith(top) ? absolute.slice(top.length) : undefined
  }

  dispose(): void {
    this.disposed = true
    this.disposables.dispose()
    this.subscribers.clear()
  }

  private hasCommits(): boolean {
    const state = this.snapshot.state
    return state.kind === 'repository' && state.status.branch.oid !== undefined
  }

  /** Runs actions one after another, says which runs, and refreshes after each (failed or not). */
  private action(label: string, work: () => Promise<void>): Promise<void> {
    const run = this.actions.then(async () => {
      this.update({ busy: label })
      try {
        await work()
      } finally {
        this.update({ busy: undefined })
        await this.refresh()
      }
    })
    this.actions = run.catch(() => {})
    return run
  }

  private async git(args: GitArg[], timeoutMs?: number): Promise<void> {
    const result = await this.runHere(args, timeoutMs ? { timeoutMs } : {})
    if (result.exitCode !== 0)
      throw new GitError(printed(result) || `git ${args[0]} failed (exit ${result.exitCode})`)
  }

  private async runHere(
    args: GitArg[],
    options: { input?: Uint8Array; timeoutMs?: number },
  ): Promise<GitResult> {
    const cwd = this.root ?? (await this.workspaceFolder())
    return this.run(args, { cwd, ...options })
  }

  private async workspaceFolder(): Promise<string> {
    this.folder ??= await this.session.files.home()
    if (!this.folder) throw new GitError('the sandbox did not say where its home folder is')
    return this.folder
  }

  private async readStatus(): Promise<void> {
    if (this.session.getSnapshot().state.kind !== 'running') return
    try {
      const folder = await this.workspaceFolder()
      if (!this.root) {
        const top = await this.run(['rev-parse', '--show-toplevel'], { cwd: folder })
        if (top.exitCode === 127) return this.update({ state: { kind: 'missing' }, decorations: new Map() })
        if (top.exitCode !== 0) return this.notRepository(folder, top)
        this.root = decoder.decode(top.stdout).replace(/\n$/, '')
      }
      const root = this.root
      const [status, remotes] = await Promise.all([
        this.run(['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all'], {
          cwd: root,
          env: { GIT_OPTIONAL_LOCKS: '0' },
          timeoutMs: statusTimeoutMs,
        }),
        this.run(['remote'], { cwd: root }),
      ])
      if (status.exitCode !== 0) {
        // The repository went away (its .git deleted): look for one again next time.
        this.root = undefined
        return status.exitCode === 127
          ? this.update({ state: { kind: 'missing' } })
          : this.notRepository(folder, status)
      }
      const parsed = parseStatus(status.stdout)
      this.update({
        state: {
          kind: 'repository',
          root,
          status: parsed,
          remotes: decoder.decode(remotes.stdout).split('\n').filter(Boolean),
        },
        decorations: decorate(root, parsed.letters),
      })
    } catch (err) {
      if (this.disposed) return
      // The sandbox stopped answering: the state stays as it was, and the next change or resume tries again.
      if (this.session.getSnapshot().state.kind !== 'running') return
      this.update({
        state: {
          kind: 'error',
          folder: this.folder ?? '',
          message: err instanceof Error ? err.message : String(err),
        },
      })
    }
  }

  private notRepository(folder: string, result: GitResult): void {
    const message = printed(result)
    this.update({
      state: /not a git repository/i.test(message)
        ? { kind: 'none', folder }
        : { kind: 'error', folder, message: message || `git failed (exit ${result.exitCode})` },
      decorations: new Map(),
    })
  }

  /** A change in the working tree, or in the parts of `.git` that matter, brings a status (gathered). */
  private watched(notice: WatchNotice): void {
    if (notice.kind === 'resync') {
      this.soon()
      return
    }
    const folder = this.root ?? this.folder
    if (!folder) return
    const top = below(folder)
    const repository = this.snapshot.state.kind === 'repository'
    for (const change of notice.changes) {
      if (!change.path.startsWith(top)) continue
      const relative = change.path.slice(top.length)
      const inGit = relative === '.git' || relative.startsWith('.git/')
      // Without a repository only a new .git matters (`git init` in a terminal).
      if (repository ? !inGit || gitStateFile.test(relative) : inGit) {
        this.soon()
        return
      }
    }
  }

  private soon(): void {
    if (this.timer || this.disposed) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.refresh()
    }, settleMs)
  }

  private update(patch: Partial<SourceControlSnapshot>): void {
    if (this.disposed) return
    this.snapshot = { ...this.snapshot, ...patch }
    this.subscribers.notify()
  }
}

/** What paths in a folder begin with: the folder and a slash (one slash for `/`). */
const below = (folder: string) => (folder.endsWith('/') ? folder : `${folder}/`)

/** The arguments naming `changes`' files (and, with `withSources`, where renames came from). */
function paths(changes: readonly GitChange[], withSources = false): GitArg[] {
  const out: GitArg[] = []
  for (const change of changes) {
    out.push(change.pathBytes)
    if (withSources && change.from) out.push(change.from.pathBytes)
  }
  return out
}

/** Each changed file by absolute path, and each folder above it (below the root) with its strongest letter. */
export function decorate(
  root: string,
  letters: ReadonlyMap<string, ChangeLetter>,
): Map<string, ChangeLetter> {
  const out = new Map<string, ChangeLetter>()
  const top = below(root)
  for (const [relative, letter] of letters) {
    let path = `${top}${relative}`
    out.set(path, letter)
    for (;;) {
      path = path.slice(0, path.lastIndexOf('/'))
      if (path.length < top.length) break
      const known = out.get(path)
      // Everything above a folder already as strong is at least as strong.
      if (known && letterStrength[known] >= letterStrength[letter]) break
      out.set(path, letter)
    }
  }
  return out
}
