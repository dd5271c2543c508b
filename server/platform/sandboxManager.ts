import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { SandboxLimits } from '../config'
import { imagePath, type SandboxDisks } from './disk/sandboxDisks'
import { newSandboxId, newSecret } from './ids'
import type { LaunchedSandbox, SandboxLauncher } from './launcher/sandboxLauncher'
import { type SandboxMetric, SandboxMetrics } from './metrics/sandboxMetrics'
import { PlatformError, sandboxNotFound } from './platformError'
import type { SandboxRecord } from './sandboxRecord'
import type { SandboxStore } from './sandboxStore'
import { seedHome } from './templates/seedHome'
import { baseTemplate, type TemplateCatalog } from './templates/templateCatalog'

/** What a create request asks for. */
export interface CreateRequest {
  templateID?: string | undefined
  /** Seconds until the timeout. */
  timeout?: number | undefined
  autoPause?: boolean | undefined
  /** E2B's auto-resume: a request to the sandbox while it is paused resumes it. */
  autoResume?: boolean | undefined
  metadata?: Record<string, string> | undefined
  envVars?: Record<string, string> | undefined
  /** No way out of the sandbox, where the launcher gives each its own network (a grader; E2B's `allow_internet_access: false`). */
  offline?: boolean
  /** Runs behind every interactive sandbox when the cores are busy (a grader). Never from a request. */
  background?: boolean
  /** Adds files to its home after the template's, before it starts (a submission to grade). Never from a request. */
  addFiles?: (homeDir: string) => Promise<void>
}

/** Shortest timeout a sandbox resumed by traffic gets (E2B: its minimum-autoresume-timeout, 5 minutes). */
const minAutoResumeSeconds = 5 * 60
/** A background sandbox's CPU weight: a tenth of an interactive one's when the cores are contended. */
const backgroundCpuWeight = 10

/**
 * What a request to a paused sandbox came to (`resumeForTraffic`): it runs (resumed now, or by
 * someone else meanwhile), or it stays paused because it was not made to resume on traffic
 * (`off`) or its processes are gone, which only an explicit resume starts afresh (as E2B's
 * filesystem-only snapshots, which traffic never resumes).
 */
export type TrafficResume = 'resumed' | 'running' | 'off' | 'processesLost'

/** Where the router should send a sandbox's traffic. */
export type Route = { kind: 'running'; runtime: RuntimeEndpoint } | { kind: 'paused' } | { kind: 'missing' }

/** How the router reaches a running sandbox's runtime. */
export interface RuntimeEndpoint {
  /** The runtime's port: on the host's loopback, or inside the sandbox's own network. */
  port: number
  /** Set when the sandbox has a network of its own: the runtime's Unix socket on the host. */
  socketPath?: string
  /** The sandbox's envdAccessToken, which the runtime asks of tunnels to its other ports. */
  accessToken: string
}

export interface ManagerOptions {
  dataDir: string
  /** Most sandboxes that may exist at once (running or paused); more creates get 429. */
  maxSandboxes: number
  /** Timeout of a sandbox created without one (seconds). */
  defaultTimeoutSeconds: number
  /** `base` and the template folders a sandbox's home may start from. */
  templates: TemplateCatalog
  log: (line: string) => void
  now?: () => number
  /** How often each running sandbox's use is sampled (E2B: every 5 s). */
  metricsEveryMs?: number
  /** What each new sandbox may use. */
  sandboxLimits: SandboxLimits
  /** How homes get their size limit (a file system each), where the host allows it. */
  disks: SandboxDisks
}

interface Entry {
  record: SandboxRecord
  launched?: LaunchedSandbox
  /** Operations on one sandbox run one after another. */
  queue: Promise<unknown>
  /** Its timeout action is under way; the ticker leaves it alone. */
  expiring?: boolean
  /** A pause is freezing it: its traffic is routed as if paused already. */
  pausing?: boolean
  /** A resume for traffic under way, which every request that finds it paused meanwhile shares. */
  waking?: Promise<TrafficResume>
}

/** Creates, pauses, resumes and kills sandboxes, keeps their records, and enforces timeouts. */
export class SandboxManager {
  private readonly entries = new Map<string, Entry>()
  private readonly ticker: NodeJS.Timeout
  private readonly sampler: NodeJS.Timeout
  private readonly metrics: SandboxMetrics
  private readonly stopListeners = new Set<(id: string) => void>()
  private readonly now: () => number
  /** Creates, resumes, pauses and kills under way, which a stop waits for. */
  private readonly pending = new Set<Promise<unknown>>()
  /** Set by `dispose`: nothing launches any more. */
  private closing = false

  constructor(
    private readonly store: SandboxStore,
    private readonly launcher: SandboxLauncher,
    private readonly options: ManagerOptions,
  ) {
    this.now = options.now ?? Date.now
    this.ticker = setInterval(() => this.expireTimeouts(), 1000)
    this.ticker.unref()
    this.metrics = new SandboxMetrics({ now: this.now })
    this.sampler = setInterval(() => this.sampleAll(), options.metricsEveryMs ?? 5000)
    this.sampler.unref()
  }

  /**
   * Takes back the stored sandboxes (`SandboxStore.load`). Their processes ended with the previous
   * platform, so each comes back paused, with its files, and says so: resuming starts a fresh runtime.
   */
  restore(records: SandboxRecord[]): void {
    for (const record of records) {
      this.entries.set(record.sandboxID, {
        record: { ...record, state: 'paused', processesLost: true },
        queue: Promise.resolve(),
      })
    }
    this.save()
  }

  /** Every sandbox, in creation order. */
  list(): SandboxRecord[] {
    return [...this.entries.values()].map((e) => e.record)
  }

  /** One sandbox; 404 when unknown. */
  /** Whether a sandbox of this id exists (running or paused). */
  has(id: string): boolean {
    return this.entries.has(id)
  }

  get(id: string): SandboxRecord {
    return this.entry(id).record
  }

  /** Host pid of a sandbox's outermost process while it has one (for measurements). */
  launchedPid(id: string): number | undefined {
    return this.entries.get(id)?.launched?.pid
  }

  /**
   * A sandbox's use over time (E2B's GET /sandboxes/{id}/metrics): samples between `start` and
   * `end` (Unix seconds); none are taken while it is paused.
   */
  metricsOf(id: string, start?: number, end?: number): SandboxMetric[] {
    this.entry(id)
    return this.metrics.series(id, start, end)
  }

  /**
   * Listens to sandboxes whose processes stop (paused or killed), so that calls in flight to
   * them end at once, as they do when E2B snapshots or stops a VM. Returns a function that stops.
   */
  onStop(listener: (id: string) => void): () => void {
    this.stopListeners.add(listener)
    return () => this.stopListeners.delete(listener)
  }

  /** Where traffic for a sandbox's runtime goes now. */
  route(id: string): Route {
    const entry = this.entries.get(id)
    if (!entry) return { kind: 'missing' }
    if (entry.record.state === 'paused' || entry.pausing || !entry.launched) return { kind: 'paused' }
    const { port, socketPath } = entry.launched
    return {
      kind: 'running',
      runtime: { port, ...(socketPath ? { socketPath } : {}), accessToken: entry.record.envdAccessToken },
    }
  }

  /** Creates and starts a sandbox. */
  create(request: CreateRequest): Promise<SandboxRecord> {
    return this.tracked(this.createNow(request))
  }

  private async createNow(request: CreateRequest): Promise<SandboxRecord> {
    if (this.closing) throw new PlatformError(503, 'the stack is stopping: no new sandboxes')
    const templateID = request.templateID ?? baseTemplate
    const templateDir = await this.options.templates.folder(templateID)
    if (this.entries.size >= this.options.maxSandboxes) {
      throw new PlatformError(
        429,
        `sandbox limit reached: ${this.options.maxSandboxes} sandboxes exist; kill one or raise --max-sandboxes`,
      )
    }
    const id = newSandboxId()
    const now = this.now()
    const record: SandboxRecord = {
      sandboxID: id,
      templateID,
      envdAccessToken: newSecret('ea_'),
      metadata: request.metadata ?? {},
      envVars: request.envVars ?? {},
      startedAt: new Date(now).toISOString(),
      endAt: new Date(now + (request.timeout ?? this.options.defaultTimeoutSeconds) * 1000).toISOString(),
      autoPause: request.autoPause ?? false,
      ...(request.autoResume
        ? {
            autoResume: {
              timeoutSeconds: Math.max(
                request.timeout ?? this.options.defaultTimeoutSeconds,
                minAutoResumeSeconds,
              ),
            },
          }
        : {}),
      state: 'running',
      limits: request.background
        ? { ...this.options.sandboxLimits, cpuWeight: backgroundCpuWeight }
        : this.options.sandboxLimits,
      ...(request.offline ? { offline: true } : {}),
    }
    const entry: Entry = { record, queue: Promise.resolve() }
    // Reserved before launching, so concurrent creates respect the limit.
    this.entries.set(id, entry)
    mkdirSync(this.homeDir(id), { recursive: true })
    try {
      await this.attachDisk(record)
      if (templateDir) await seedHome(templateDir, this.homeDir(id))
      await request.addFiles?.(this.homeDir(id))
      await this.serialized(entry, () => this.launch(entry))
    } catch (err) {
      this.entries.delete(id)
      await this.options.disks.detach(this.homeDir(id)).catch(() => {})
      rmSync(this.sandboxDir(id), { recursive: true, force: true })
      throw new PlatformError(
        500,
        `could not start sandbox: ${err instanceof Error ? err.message : String(err)}`,
      )
    }
    this.save()
    this.options.log(`sandbox ${id}: created (timeout ${record.endAt})`)
    return record
  }

  /** Freezes every process of a running sandbox; 409 when it is paused already. */
  pause(id: string): Promise<void> {
    const entry = this.entry(id)
    return this.serialized(entry, async () => {
      if (entry.record.state === 'paused') {
        throw new PlatformError(409, `Error pausing sandbox - sandbox '${id}' is already paused`)
      }
      entry.pausing = true
      try {
        await entry.launched?.freeze()
      } finally {
        entry.pausing = false
      }
      this.metrics.paused(id)
      entry.record = { ...entry.record, state: 'paused' }
      this.stopped(id)
      this.save()
      this.options.log(`sandbox ${id}: paused`)
    })
  }

  /**
   * Makes sure a sandbox runs: a running one only gets a later timeout (when `timeout` asks for
   * more); a paused one is thawed, or started afresh on its files when its processes are gone.
   * Returns whether it had to resume it.
   */
  connect(
    id: string,
    timeoutSeconds?: number,
    { autoPause }: { autoPause?: boolean | undefined } = {},
  ): Promise<{ record: SandboxRecord; resumed: boolean }> {
    const entry = this.entry(id)
    return this.serialized(entry, async () => {
      const endAt = this.now() + (timeoutSeconds ?? this.options.defaultTimeoutSeconds) * 1000
      if (entry.record.state === 'running') {
        if (timeoutSeconds !== undefined && endAt > Date.parse(entry.record.endAt)) {
          entry.record = { ...entry.record, endAt: new Date(endAt).toISOString() }
          this.save()
        }
        return { record: entry.record, resumed: false }
      }
      await this.resumeNow(entry, endAt, '')
      // E2B's deprecated resume may still change what the timeout does.
      if (autoPause !== undefined) entry.record = { ...entry.record, autoPause }
      this.save()
      return { record: entry.record, resumed: true }
    })
  }

  /**
   * E2B's auto-resume: a request reached the sandbox while it was paused (or pausing, which it
   * waits for). One created with auto-resume, its processes kept, is thawed for its auto-resume
   * timeout; the requests that find it paused meanwhile share that one resume. A sandbox killed
   * meanwhile rejects with 404, and is never brought back. Which requests may call this is the
   * router's to decide (as E2B's edge asks for the sandbox's tokens first).
   */
  resumeForTraffic(id: string): Promise<TrafficResume> {
    const entry = this.entry(id)
    if (!entry.record.autoResume) return Promise.resolve('off')
    entry.waking ??= this.serialized(entry, async (): Promise<TrafficResume> => {
      const { autoResume } = entry.record
      if (entry.record.state === 'running') return 'running'
      if (!autoResume) return 'off'
      if (!entry.launched || entry.record.processesLost) return 'processesLost'
      await this.resumeNow(entry, this.now() + autoResume.timeoutSeconds * 1000, ' by a request to it')
      this.save()
      return 'resumed'
    }).finally(() => {
      entry.waking = undefined
    })
    return entry.waking
  }

  /** Runs a paused sandbox again until `endAt`: thawed, or a fresh runtime when its processes are gone. */
  private async resumeNow(entry: Entry, endAt: number, why: string): Promise<void> {
    const id = entry.record.sandboxID
    if (entry.launched && !entry.record.processesLost) {
      await entry.launched.thaw()
      this.options.log(`sandbox ${id}: resumed${why}`)
    } else {
      await this.launch(entry)
      this.options.log(`sandbox ${id}: resumed with a fresh runtime (its processes were gone)`)
    }
    const { processesLost: _, ...rest } = entry.record
    // As on E2B, a resumed sandbox starts anew: the list puts it first (newest first).
    const startedAt = new Date(this.now()).toISOString()
    entry.record = { ...rest, state: 'running', startedAt, endAt: new Date(endAt).toISOString() }
  }

  /** Sets a sandbox's timeout to `seconds` from now. */
  setTimeout(id: string, seconds: number): void {
    const entry = this.entry(id)
    entry.record = { ...entry.record, endAt: new Date(this.now() + seconds * 1000).toISOString() }
    this.save()
  }

  /** Kills a sandbox and deletes its files. */
  kill(id: string): Promise<void> {
    const entry = this.entry(id)
    return this.serialized(entry, async () => {
      this.entries.delete(id)
      this.stopped(id)
      await entry.launched?.kill()
      this.metrics.forget(id)
      await this.options.disks.detach(this.homeDir(id))
      rmSync(this.sandboxDir(id), { recursive: true, force: true })
      this.save()
      this.options.log(`sandbox ${id}: killed`)
    })
  }

  /**
   * Stops every sandbox's processes (their files and records stay) and the timeout ticker, after
   * the operations under way: a create or a resume half done would mount after the unmounts.
   */
  async dispose(): Promise<void> {
    this.closing = true
    clearInterval(this.ticker)
    clearInterval(this.sampler)
    while (this.pending.size > 0) await Promise.allSettled([...this.pending])
    await Promise.all([...this.entries.values()].map((e) => e.launched?.kill()))
    // Homes are unmounted (their files stay in their images); the next start mounts them again.
    await Promise.all([...this.entries.keys()].map((id) => this.options.disks.detach(this.homeDir(id))))
  }

  /** Folder of a sandbox's home on the host. */
  homeDir(id: string): string {
    return join(this.sandboxDir(id), 'home')
  }

  private sandboxDir(id: string): string {
    return join(this.options.dataDir, 'sandboxes', id)
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id)
    if (!entry) throw sandboxNotFound(id)
    return entry
  }

  /**
   * Runs `operation` after every earlier one on the sandbox. A sandbox killed meanwhile (by a
   * client or its timeout) is gone for whatever waited behind the kill: 404, never a revival.
   */
  private serialized<T>(entry: Entry, operation: () => Promise<T>): Promise<T> {
    const id = entry.record.sandboxID
    const guarded = () => {
      if (this.entries.get(id) !== entry) throw sandboxNotFound(id)
      return operation()
    }
    const result = entry.queue.then(guarded, guarded)
    entry.queue = result.catch(() => {})
    return this.tracked(result)
  }

  /** Keeps `work` among the operations a stop waits for, until it settles. */
  private tracked<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work)
    const settled = () => this.pending.delete(work)
    work.then(settled, settled)
    return work
  }

  private async launch(entry: Entry): Promise<void> {
    const { sandboxID: id, templateID } = entry.record
    // After a stop's unmounts, nothing may mount again.
    if (this.closing) throw new PlatformError(503, `sandbox ${id}: the stack is stopping`)
    // Mounted already unless the platform restarted since.
    await this.attachDisk(entry.record)
    const launched = await this.launcher.launch({
      id,
      homeDir: this.homeDir(id),
      accessToken: entry.record.envdAccessToken,
      envVars: {
        E2B_SANDBOX: 'true',
        E2B_SANDBOX_ID: id,
        E2B_TEMPLATE_ID: templateID,
        ...entry.record.envVars,
      },
      limits: this.limitsOf(entry.record),
      ...(entry.record.offline ? { offline: true } : {}),
    })
    entry.launched = launched
    void launched.exited.then(() => this.onExited(entry, launched))
    this.metrics.paused(id)
    // Awaited (a few small reads) so that a sandbox answers for its use as soon as it runs.
    await this.sample(entry)
  }

  /** Gives the sandbox's home its size limit, when its record has one (older ones have none). */
  private async attachDisk(record: SandboxRecord): Promise<void> {
    const { diskMB } = this.limitsOf(record)
    if (diskMB)
      await this.options.disks.attach(
        this.sandboxDir(record.sandboxID),
        this.homeDir(record.sandboxID),
        diskMB,
      )
  }

  /** The size of the sandbox's home file system, 0 when its home is a plain folder without a limit. */
  diskSizeMB(record: SandboxRecord): number {
    const { diskMB } = this.limitsOf(record)
    const hasImage = existsSync(imagePath(this.sandboxDir(record.sandboxID), this.homeDir(record.sandboxID)))
    return diskMB && this.options.disks.kind !== 'none' && hasImage ? diskMB : 0
  }

  /** What a sandbox may use: its own limits, or the stack's for a record that has none. */
  limitsOf(record: SandboxRecord): SandboxLimits {
    return record.limits ?? this.options.sandboxLimits
  }

  private stopped(id: string): void {
    for (const listener of this.stopListeners) listener(id)
  }

  private sampleAll(): void {
    for (const entry of this.entries.values()) void this.sample(entry)
  }

  private async sample(entry: Entry): Promise<void> {
    const { launched, record } = entry
    if (!launched || record.state !== 'running' || this.entries.get(record.sandboxID) !== entry) return
    try {
      const { cpus, memoryMB } = this.limitsOf(record)
      await this.metrics.sample(record.sandboxID, {
        members: () => launched.members(),
        homeDir: this.homeDir(record.sandboxID),
        ownFileSystem: this.diskSizeMB(record) > 0,
        share: { cpus, memoryBytes: memoryMB * 1024 * 1024 },
      })
    } catch (err) {
      this.options.log(`sandbox ${record.sandboxID}: sampling its use failed: ${String(err)}`)
    }
  }

  /** A runtime that ends on its own leaves its sandbox paused with its processes gone. */
  private onExited(entry: Entry, launched: LaunchedSandbox): void {
    if (entry.launched !== launched) return
    entry.launched = undefined
    if (this.entries.get(entry.record.sandboxID) !== entry) return
    entry.record = { ...entry.record, state: 'paused', processesLost: true }
    this.save()
    this.options.log(`sandbox ${entry.record.sandboxID}: runtime exited; paused, resume starts a fresh one`)
  }

  private expireTimeouts(): void {
    const now = this.now()
    for (const entry of this.entries.values()) {
      const { record } = entry
      if (entry.expiring || record.state !== 'running' || Date.parse(record.endAt) > now) continue
      entry.expiring = true
      const id = record.sandboxID
      this.options.log(`sandbox ${id}: timeout reached, ${record.autoPause ? 'pausing' : 'killing'}`)
      const action = record.autoPause ? this.pause(id) : this.kill(id)
      action
        .catch((err) => this.options.log(`sandbox ${id}: timeout action failed: ${String(err)}`))
        .finally(() => {
          entry.expiring = false
        })
    }
  }

  private save(): void {
    this.store.save(this.list())
  }
}
