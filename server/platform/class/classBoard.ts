import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import type { CheckVerdict, ClassStudent, ClassSummary, ClassView } from '../../../src/contract/ideApiTypes'
import { LabManifestError, parseLabManifest } from '../../../src/contract/labManifest'
import { labManifestPath, labStartPath } from '../../../src/contract/labPaths'
import type { JoinLinks } from '../access/joinLinks'
import { PlatformError } from '../platformError'
import { readJsonRecordOrSetAside, writeRecordFile } from '../recordFile'
import { type SandboxRef, sandboxIn, sandboxKey, sandboxOfKey } from '../sandboxRef'
import type { ClassMember, ClassPlace } from './classPlace'

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
 * `npm run class` makes them, on the stack or on an E2B remote: see ClassPlace): each student's
 * state, last activity, link and last check, and the check and reset of their lab, run in their
 * sandbox through its runtime as any client would, a few at a time and at a lower priority than
 * the students' typing. Verdicts are kept in `<data>/class-checks.json`, so a restart keeps them.
 */
export class ClassBoard {
  private verdicts: Record<string, CheckVerdict> | undefined
  /** When a student's page last called the stack about their sandbox, in ms. */
  private readonly pageSeen = new Map<string, number>()

  constructor(
    private readonly dataDir: string,
    private readonly joinLinks: Pick<JoinLinks, 'list'>,
    /** When a browser last called one of the stack's own sandboxes, in ms. */
    private readonly runtimeActivity: (sandboxId: string) => number | undefined,
    /** Whether a sandbox still exists: a killed one's verdict goes at the next save. */
    private readonly exists: (sandbox: SandboxRef) => boolean,
    /** Where a damaged file of verdicts is reported. */
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  private get path(): string {
    return join(this.dataDir, 'class-checks.json')
  }

  private allVerdicts(): Record<string, CheckVerdict> {
    this.verdicts ??=
      readJsonRecordOrSetAside(
        this.path,
        'verdicts by sandbox',
        (value) =>
          typeof value === 'object' && value !== null && !Array.isArray(value)
            ? (value as Record<string, CheckVerdict>)
            : undefined,
        this.log,
      ) ?? {}
    return this.verdicts
  }

  private save(): void {
    const verdicts = this.allVerdicts()
    for (const key of Object.keys(verdicts)) if (!this.exists(sandboxOfKey(key))) delete verdicts[key]
    writeRecordFile(this.path, JSON.stringify(this.allVerdicts()))
  }

  private keep(sandbox: SandboxRef, verdict: CheckVerdict): void {
    this.allVerdicts()[sandboxKey(sandbox)] = verdict
    this.save()
  }

  /** A sandbox is gone (killed, or its class ended): its verdict goes too. */
  forget(sandbox: SandboxRef): void {
    const key = sandboxKey(sandbox)
    this.pageSeen.delete(key)
    if (!(key in this.allVerdicts())) return
    delete this.allVerdicts()[key]
    this.save()
  }

  /** A student's page called the stack about their own sandbox just now. */
  seen(sandbox: SandboxRef): void {
    this.pageSeen.set(sandboxKey(sandbox), this.now())
  }

  private lastActivity(sandbox: SandboxRef): number | undefined {
    const page = this.pageSeen.get(sandboxKey(sandbox))
    const runtime = sandbox.remoteId ? undefined : this.runtimeActivity(sandbox.sandboxId)
    return page === undefined ? runtime : runtime === undefined ? page : Math.max(page, runtime)
  }

  /** The class's sandboxes by student name, or 404. */
  private async members(place: ClassPlace, name: string): Promise<ClassMember[]> {
    const members = await place.members(name)
    if (members.length === 0)
      throw new PlatformError(
        404,
        `no class '${name}' on ${place.remoteId ? 'this E2B remote' : 'this stack'}`,
      )
    return members.sort((a, b) =>
      (a.metadata.student ?? '').localeCompare(b.metadata.student ?? '', undefined, { numeric: true }),
    )
  }

  /** The sandboxes of the class that `ids` names (all when absent); 400 for one not in it. */
  async chosen(place: ClassPlace, name: string, ids?: string[]): Promise<ClassMember[]> {
    const members = await this.members(place, name)
    if (!ids) return members
    return ids.map((id) => {
      const member = members.find((m) => m.sandboxId === id)
      if (!member) throw new PlatformError(400, `sandbox ${id} is not in class '${name}'`)
      return member
    })
  }

  async classes(place: ClassPlace): Promise<ClassSummary[]> {
    const byName = new Map<string, ClassSummary>()
    for (const member of await place.members()) {
      const name = member.metadata.class
      if (!name) continue
      const summary = byName.get(name) ?? {
        name,
        students: 0,
        running: 0,
        ...(place.remoteId ? { remoteId: place.remoteId } : {}),
      }
      summary.students += 1
      if (member.state === 'running') summary.running += 1
      byName.set(name, summary)
    }
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name))
  }

  async view(place: ClassPlace, name: string): Promise<ClassView> {
    const verdicts = this.allVerdicts()
    const students = (await this.members(place, name)).map((member) => {
      const ref = sandboxIn(place.remoteId, member.sandboxId)
      return this.student(ref, member, verdicts[sandboxKey(ref)])
    })
    return { name, ...(place.remoteId ? { remoteId: place.remoteId } : {}), students }
  }

  private student(ref: SandboxRef, member: ClassMember, check: CheckVerdict | undefined): ClassStudent {
    const seen = this.lastActivity(ref)
    const link = this.joinLinks.list({ sandbox: ref }).at(-1)
    return {
      student: member.metadata.student ?? member.sandboxId,
      sandboxId: member.sandboxId,
      state: member.state,
      endAt: member.endAt,
      lastActivityAt: seen === undefined ? null : new Date(seen).toISOString(),
      link: !link
        ? { state: 'none' }
        : link.claimedAt
          ? { state: 'opened', at: link.claimedAt }
          : { state: 'waiting', expiresAt: link.expiresAt },
      check: check ?? null,
    }
  }

  /** Checks the labs of the running sandboxes among `members`, a few at a time; how many passed. */
  async check(place: ClassPlace, members: ClassMember[]): Promise<{ passed: number; checked: number }> {
    let passed = 0
    const running = members.filter((m) => m.state === 'running')
    await inBatches(running, checksAtOnce, async (member) => {
      const verdict = await this.checkOne(place, member.sandboxId)
      if (verdict.passed) passed += 1
      this.keep(sandboxIn(place.remoteId, member.sandboxId), verdict)
    })
    return { passed, checked: running.length }
  }

  /** The sandbox's lab manifest, read in it (the student may have changed anything but this). */
  private async manifest(place: ClassPlace, sandboxId: string) {
    const read = await (await place.commands(sandboxId)).run('cat', ['--', `${home}/${labManifestPath}`], {
      timeoutMs: 10_000,
      tag: 'lab-dashboard',
    })
    if (read.exitCode !== 0)
      throw new Error(`this sandbox holds no lab (${labManifestPath}: ${read.output.trim()})`)
    return parseLabManifest(read.output)
  }

  private async checkOne(place: ClassPlace, sandboxId: string): Promise<CheckVerdict> {
    const at = () => new Date().toISOString()
    try {
      const { check } = await this.manifest(place, sandboxId)
      if (!check) return { at: at(), passed: null, error: 'this lab has no check' }
      // Below the sandbox's own runtime and shells, so its student keeps typing at ease.
      const outcome = await (await place.commands(sandboxId)).run(
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
  async reset(place: ClassPlace, sandboxId: string): Promise<void> {
    let manifest: Awaited<ReturnType<ClassBoard['manifest']>>
    try {
      manifest = await this.manifest(place, sandboxId)
    } catch (err) {
      // No such sandbox, or its platform's own refusal.
      if (err instanceof PlatformError) throw err
      throw new PlatformError(409, messageOf(err))
    }
    if (manifest.reset === false) throw new PlatformError(409, 'this lab cannot be reset')
    const copy = await (await place.commands(sandboxId)).run(
      'cp',
      ['-R', '--parents', '--', ...(manifest.reset.paths ?? ['.']), home],
      { cwd: `${home}/${labStartPath}`, timeoutMs: 60_000, tag: 'lab-reset' },
    )
    if (copy.exitCode !== 0)
      throw new PlatformError(409, `the reset failed: ${copy.output.trim() || copy.status}`)
    this.keep(sandboxIn(place.remoteId, sandboxId), {
      at: new Date().toISOString(),
      passed: null,
      error: 'reset to the starting files; not checked since',
    })
  }
}
