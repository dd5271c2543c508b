import { DisposableStore, toDisposable } from '../../common/lifecycle'
import { Subscribers } from '../../common/Subscribers'
import { protectingGlob } from '../../contract/labGlob'
import type { LabManifest } from '../../contract/labManifest'
import { labManifestPath, labStartPath } from '../../contract/labPaths'
import type { FileWatch, WatchNotice } from '../../sandbox/fileWatch'
import type { LabSubmissions } from '../../sandbox/labSubmissions'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { isNotFound as isMissing } from '../../sandbox/sandboxError'
import type { CommandResult } from '../../sandbox/sandboxProcesses'
import type { LabGrading, UnsavedFiles } from './LabGrading'

/** Whether the sandbox holds a lab, and what it says. */
export type LabState =
  | { kind: 'none' }
  | { kind: 'invalid'; error: string }
  | { kind: 'ready'; manifest: LabManifest; instructions: Instructions }

/** The lab's Markdown, or why it is missing. */
export type Instructions =
  | { kind: 'none' }
  | { kind: 'text'; text: string; path: string }
  | { kind: 'error'; message: string }

export type CheckState =
  | { kind: 'idle' }
  | { kind: 'running'; output: string }
  | { kind: 'done'; passed: boolean; result: CommandResult }
  | { kind: 'error'; message: string }

export type ResetState =
  | { kind: 'idle' }
  | { kind: 'confirming' }
  | { kind: 'running' }
  | { kind: 'done' }
  | { kind: 'error'; message: string }

/** What the lab panel renders: replaced, never mutated, on every change. */
export interface LabSnapshot {
  lab: LabState
  /** The home folder's absolute path, once known. */
  home: string | undefined
  check: CheckState
  reset: ResetState
  /** Submit, feedback and history, for a lab with `grade` where the stack grades (its code loads then). */
  grading: LabGrading | undefined
}

/** Before anything is known: no lab. */
export const noLabSnapshot: LabSnapshot = {
  lab: { kind: 'none' },
  home: undefined,
  check: { kind: 'idle' },
  reset: { kind: 'idle' },
  grading: undefined,
}

/** What the lab needs of a session: its files and processes, and whether it runs. */
export type LabSession = Pick<SandboxSession, 'files' | 'processes' | 'getSnapshot' | 'subscribe'>

/** Instructions bigger than this are not shown (a lab's text is a few kilobytes). */
const maxInstructionsBytes = 512 * 1024

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

/**
 * The teaching lab of a sandbox, from its `.lab/lab.json`: read when the sandbox runs and again
 * whenever the watch sees `.lab/` or the instructions change. It runs the lab's check in the
 * sandbox, restores the starting files from `.lab/start/`, and says which paths are read-only.
 */
export class LabController {
  private snapshot = noLabSnapshot
  private readonly subscribers = new Subscribers()
  private readonly disposables = new DisposableStore()
  private loading: Promise<void> | undefined
  private loadAgain = false
  private loaded = false
  private disposed = false
  private gradingLoads = false

  constructor(
    private readonly session: LabSession,
    watch: Pick<FileWatch, 'subscribe'>,
    /** Where a graded lab's work is submitted, and the editor's unsaved files; none: no Submit. */
    private readonly submitting?: { submissions: LabSubmissions; unsaved: UnsavedFiles },
  ) {
    this.disposables.add(
      toDisposable(
        session.subscribe(() => {
          if (!this.loaded) this.reload()
        }),
      ),
    )
    this.disposables.add(toDisposable(watch.subscribe(this.onNotice)))
    this.reload()
  }

  subscribe = this.subscribers.add

  getSnapshot = (): LabSnapshot => this.snapshot

  /** Why `path` (absolute) may not be edited, renamed, moved or deleted, or undefined. */
  readOnlyReason(path: string): string | undefined {
    const { lab, home } = this.snapshot
    if (lab.kind !== 'ready' || !home || !path.startsWith(`${home}/`)) return undefined
    const relative = path.slice(home.length + 1)
    const glob = protectingGlob(lab.manifest.readOnly, relative)
    return glob && `${relative} is part of the lab (${glob}): it cannot be changed here.`
  }

  /** The check can run now. */
  get canCheck(): boolean {
    const { lab } = this.snapshot
    return lab.kind === 'ready' && !!lab.manifest.check && this.idle()
  }

  /** Reset can be asked for now. */
  get canReset(): boolean {
    const { lab } = this.snapshot
    return lab.kind === 'ready' && lab.manifest.reset !== false && this.idle()
  }

  /** Runs the lab's check command in the sandbox; exit status 0 is a pass. */
  async check(): Promise<void> {
    const { lab, home } = this.snapshot
    if (!this.canCheck || lab.kind !== 'ready' || !lab.manifest.check) return
    const { command, timeoutSeconds } = lab.manifest.check
    this.update({ check: { kind: 'running', output: '' } })
    try {
      const result = await this.session.processes.run('/bin/bash', {
        args: ['-l', '-c', command],
        ...(home ? { cwd: home } : {}),
        timeoutMs: timeoutSeconds * 1000,
        tag: 'lab-check',
        onOutput: (output) => this.update({ check: { kind: 'running', output } }),
      })
      this.update({ check: { kind: 'done', passed: result.exitCode === 0 && !result.timedOut, result } })
    } catch (err) {
      this.update({ check: { kind: 'error', message: messageOf(err) } })
    }
  }

  /** Asks the user to confirm a reset (the panel shows the dialog). */
  requestReset(): void {
    if (this.canReset) this.update({ reset: { kind: 'confirming' } })
  }

  /** The answer to "reset the lab?": copies the starting files back over the home folder. */
  async answerReset(confirmed: boolean): Promise<void> {
    const { lab, home, reset } = this.snapshot
    if (reset.kind !== 'confirming') return
    if (!confirmed || lab.kind !== 'ready' || lab.manifest.reset === false || !home) {
      this.update({ reset: { kind: 'idle' } })
      return
    }
    this.update({ reset: { kind: 'running' }, check: { kind: 'idle' } })
    try {
      const start = `${home}/${labStartPath}`
      await this.session.files.stat(start).catch((err: unknown) => {
        if (!isMissing(err)) throw err
        throw new Error(`this lab has no starting files to reset from (${labStartPath} is missing)`)
      })
      // `cp -R --parents a b/c HOME` puts each path where it was; `.` is everything.
      const paths = lab.manifest.reset.paths ?? ['.']
      const copy = await this.session.processes.run('cp', {
        args: ['-R', '--parents', '--', ...paths, home],
        cwd: start,
        timeoutMs: 60_000,
        tag: 'lab-reset',
      })
      if (copy.exitCode !== 0) throw new Error(copy.stderr.trim() || copy.status || 'cp failed')
      this.update({ reset: { kind: 'done' } })
    } catch (err) {
      this.update({ reset: { kind: 'error', message: messageOf(err) } })
    }
  }

  dispose(): void {
    this.disposed = true
    this.snapshot.grading?.dispose()
    this.disposables.dispose()
    this.subscribers.clear()
  }

  /** The sandbox runs, and neither a check nor a reset is under way or being asked about. */
  private idle(): boolean {
    const { check, reset } = this.snapshot
    const busy = check.kind === 'running' || reset.kind === 'running' || reset.kind === 'confirming'
    return this.session.getSnapshot().state.kind === 'running' && !busy
  }

  private readonly onNotice = (notice: WatchNotice) => {
    const { home, lab } = this.snapshot
    if (notice.kind === 'resync') return this.reload()
    if (!home) return
    const watched = [`${home}/.lab`]
    if (lab.kind === 'ready' && lab.manifest.instructions)
      watched.push(`${home}/${lab.manifest.instructions}`)
    const touches = (path: string) =>
      watched.some((w) => path === w || path.startsWith(`${w}/`) || w.startsWith(`${path}/`))
    if (notice.changes.some((c) => touches(c.path))) this.reload()
  }

  /** Reads the manifest again; one read at a time, and one more if asked meanwhile. */
  private reload(): void {
    if (this.session.getSnapshot().state.kind !== 'running' || this.disposed) return
    if (this.loading) {
      this.loadAgain = true
      return
    }
    this.loading = this.load().finally(() => {
      this.loading = undefined
      if (this.loadAgain) {
        this.loadAgain = false
        this.reload()
      }
    })
  }

  private async load(): Promise<void> {
    try {
      const home = this.snapshot.home ?? (await this.session.files.home())
      if (!home) throw new Error('the sandbox did not say where its home folder is')
      this.update({ home, lab: await this.readLab(home) })
      this.loaded = true
      this.followGrading()
    } catch (err) {
      // Not reachable now (paused, reconnecting): what was shown stays, and the next change reads again.
      if (!this.loaded) this.update({ lab: { kind: 'none' } })
      console.warn(`lab: reading ${labManifestPath} failed: ${messageOf(err)}`)
    }
  }

  /** A lab that names `grade` gets its grading (loaded then), one that no longer does loses it. */
  private followGrading(): void {
    const { lab, grading } = this.snapshot
    const submitting = this.submitting
    if (!submitting || lab.kind !== 'ready' || !lab.manifest.grade) {
      grading?.dispose()
      if (grading) this.update({ grading: undefined })
    } else if (!grading && !this.gradingLoads) {
      this.gradingLoads = true
      void import('./LabGrading').then(({ LabGrading }) => {
        this.gradingLoads = false
        if (this.disposed || this.snapshot.grading) return
        const running = () => this.session.getSnapshot().state.kind === 'running'
        this.update({ grading: new LabGrading(submitting.submissions, submitting.unsaved, running) })
        // The manifest may have changed while the code loaded.
        this.followGrading()
      })
    }
  }

  private async readLab(home: string): Promise<LabState> {
    let text: string
    try {
      text = new TextDecoder().decode(await this.session.files.read(`${home}/${labManifestPath}`))
    } catch (err) {
      if (isMissing(err)) return { kind: 'none' }
      throw err
    }
    // The parser (and zod) load only for a sandbox that has a lab.
    const { parseLabManifest, LabManifestError } = await import('../../contract/labManifest')
    try {
      const manifest = parseLabManifest(text)
      return { kind: 'ready', manifest, instructions: await this.readInstructions(home, manifest) }
    } catch (err) {
      if (err instanceof LabManifestError) return { kind: 'invalid', error: err.message }
      throw err
    }
  }

  private async readInstructions(home: string, manifest: LabManifest): Promise<Instructions> {
    const path = manifest.instructions
    if (!path) return { kind: 'none' }
    try {
      const bytes = await this.session.files.read(`${home}/${path}`)
      if (bytes.length > maxInstructionsBytes) {
        return {
          kind: 'error',
          message: `${path} is too big to show (over ${maxInstructionsBytes / 1024} KiB)`,
        }
      }
      return { kind: 'text', text: new TextDecoder().decode(bytes), path }
    } catch (err) {
      if (isMissing(err)) return { kind: 'error', message: `${path} is missing` }
      return { kind: 'error', message: `${path} could not be read: ${messageOf(err)}` }
    }
  }

  private update(patch: Partial<LabSnapshot>): void {
    if (this.disposed) return
    this.snapshot = { ...this.snapshot, ...patch }
    this.subscribers.notify()
  }
}
