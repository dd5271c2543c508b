import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import type { CheckVerdict, ClassStudent, ClassSummary, ClassView } from '../../../src/contract/ideApiTypes'
import { LabManifestError, parseLabManifest } from '../../../src/contract/labManifest'
import { labManifestPath, labStartPath } from '../../../src/contract/labPaths'
import type { JoinLinks } from '../access/joinLinks'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import type { SandboxRecord } from '../sandboxRecord'
import { sandboxCommands } from './sandboxCommands'

/** Where a sandbox's user lives, as the runtime runs commands (`user`). */
const home = '/home/user'
/**
 * Checks at once: as many as the machine has cores, so the class's typing stays quick while the
 * teacher waits a little longer (measured: six at once on two cores tripled the echo's tail).
 */
const checksAtOnce = Math.max(1, availableParallelism())

/** Runs `work` on every item, at most `limit` at a time. */
async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items]
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item)
  }
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker))
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

/**
 * What a teacher sees and does for a class (the sandboxes whose metadata names it, as
 * `npm run class` makes them): each student's state, last activity, link and last check, and the
 * check and reset of their lab, run in their sandbox through its runtime as any client would,
 * a few at a time and at a lower priority than the students' typing.
 * Verdicts are kept in `<data>/class-checks.json`, so a restart keeps them.
 */
export class ClassBoard {
  private verdicts: Record<string, CheckVerdict> | undefined

  constructor(
    private readonly dataDir: string,
    private readonly manager: SandboxManager,
    private readonly joinLinks: Pick<JoinLinks, 'list'>,
    /** When a browser last called the sandbox, in ms. */
    private readonly lastActivity: (sandboxId: string) => number | undefined,
  ) {}

  private get path(): string {
    return join(this.dataDir, 'class-checks.json')
  }

  private allVerdicts(): Record<string, CheckVerdict> {
    if (!this.verdicts) {
      try {
        this.verdicts = JSON.parse(readFileSync(this.path, 'utf8')) as Record<string, CheckVerdict>
      } catch {
        this.verdicts = {}
      }
    }
    return this.verdicts
  }

  private keep(sandboxId: string, verdict: CheckVerdict): void {
    const verdicts = this.allVerdicts()
    verdicts[sandboxId] = verdict
    // Only the sandboxes that still exist.
    for (const id of Object.keys(verdicts)) if (!this.manager.has(id)) delete verdicts[id]
    const partial = `${this.path}.${process.pid}.partial`
    writeFileSync(partial, JSON.stringify(verdicts), { mode: 0o600 })
    renameSync(partial, this.path)
  }

  private members(name: string): SandboxRecord[] {
    return this.manager
      .list()
      .filter((r) => r.metadata.class === name)
      .sort((a, b) =>
        (a.metadata.student ?? '').localeCompare(b.metadata.student ?? '', undefined, { numeric: true }),
      )
  }

  /** The class's sandboxes, or 404. */
  private membersOrThrow(name: string): SandboxRecord[] {
    const members = this.members(name)
    if (members.length === 0) throw new PlatformError(404, `no class '${name}' on this stack`)
    return members
  }

  /** The sandboxes of the class that `ids` names (all when absent); 400 for one not in it. */
  chosen(name: string, ids?: string[]): SandboxRecord[] {
    const members = this.membersOrThrow(name)
    if (!ids) return members
    return ids.map((id) => {
      const member = members.find((m) => m.sandboxID === id)
      if (!member) throw new PlatformError(400, `sandbox ${id} is not in class '${name}'`)
      return member
    })
  }

  classes(): ClassSummary[] {
    const byName = new Map<string, ClassSummary>()
    for (const record of this.manager.list()) {
      const name = record.metadata.class
      if (!name) continue
      const summary = byName.get(name) ?? { name, students: 0, running: 0 }
      summary.students += 1
      if (record.state === 'running') summary.running += 1
      byName.set(name, summary)
    }
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name))
  }

  view(name: string): ClassView {
    const verdicts = this.allVerdicts()
    return { name, students: this.membersOrThrow(name).map((r) => this.student(r, verdicts[r.sandboxID])) }
  }

  private student(record: SandboxRecord, check: CheckVerdict | undefined): ClassStudent {
    const seen = this.lastActivity(record.sandboxID)
    const link = this.joinLinks.list({ sandboxId: record.sandboxID }).at(-1)
    return {
      student: record.metadata.student ?? record.sandboxID,
      sandboxId: record.sandboxID,
      state: record.state,
      endAt: record.endAt,
      lastActivityAt: seen === undefined ? null : new Date(seen).toISOString(),
      link: !link
        ? { state: 'none' }
        : link.claimedAt
          ? { state: 'opened', at: link.claimedAt }
          : { state: 'waiting', expiresAt: link.expiresAt },
      check: check ?? null,
    }
  }

  /** Checks the labs of the running sandboxes among `records`, a few at a time; how many passed. */
  async check(records: SandboxRecord[]): Promise<{ passed: number; checked: number }> {
    let passed = 0
    const running = records.filter((r) => r.state === 'running')
    await inBatches(running, checksAtOnce, async (record) => {
      const verdict = await this.checkOne(record.sandboxID)
      if (verdict.passed) passed += 1
      this.keep(record.sandboxID, verdict)
    })
    return { passed, checked: running.length }
  }

  private commands(sandboxId: string) {
    const route = this.manager.route(sandboxId)
    if (route.kind !== 'running') throw new Error(`the sandbox is ${route.kind}`)
    return sandboxCommands(route.runtime)
  }

  /** The sandbox's lab manifest, read in it (the student may have changed anything but this). */
  private async manifest(sandboxId: string) {
    const read = await this.commands(sandboxId).run('cat', ['--', `${home}/${labManifestPath}`], {
      timeoutMs: 10_000,
      tag: 'lab-dashboard',
    })
    if (read.exitCode !== 0)
      throw new Error(`this sandbox holds no lab (${labManifestPath}: ${read.output.trim()})`)
    return parseLabManifest(read.output)
  }

  private async checkOne(sandboxId: string): Promise<CheckVerdict> {
    const at = () => new Date().toISOString()
    try {
      const { check } = await this.manifest(sandboxId)
      if (!check) return { at: at(), passed: null, error: 'this lab has no check' }
      // Below the sandbox's own runtime and shells, so its student keeps typing at ease.
      const outcome = await this.commands(sandboxId).run(
        'nice',
        ['-n', '10', '/bin/bash', '-l', '-c', check.command],
        {
          cwd: home,
          timeoutMs: check.timeoutSeconds * 1000,
          tag: 'lab-check',
        },
      )
      return { at: at(), passed: outcome.exitCode === 0, status: outcome.status, output: outcome.output }
    } catch (err) {
      return {
        at: at(),
        passed: null,
        error: err instanceof LabManifestError ? err.message : `the check could not run: ${messageOf(err)}`,
      }
    }
  }

  /** Copies the lab's starting files back over the student's (as the lab panel's Reset does). */
  async reset(sandboxId: string): Promise<void> {
    let manifest: Awaited<ReturnType<ClassBoard['manifest']>>
    try {
      manifest = await this.manifest(sandboxId)
    } catch (err) {
      throw new PlatformError(409, messageOf(err))
    }
    if (manifest.reset === false) throw new PlatformError(409, 'this lab cannot be reset')
    const copy = await this.commands(sandboxId).run(
      'cp',
      ['-R', '--parents', '--', ...(manifest.reset.paths ?? ['.']), home],
      { cwd: `${home}/${labStartPath}`, timeoutMs: 60_000, tag: 'lab-reset' },
    )
    if (copy.exitCode !== 0)
      throw new PlatformError(409, `the reset failed: ${copy.output.trim() || copy.status}`)
    this.keep(sandboxId, {
      at: new Date().toISOString(),
      passed: null,
      error: 'reset to the starting files; not checked since',
    })
  }
}
