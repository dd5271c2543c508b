import { cpus, totalmem } from 'node:os'
import { fileSystemBytes, fileSystemUsedBytes, folderBytes } from './folderUsage'
import { processUsage } from './processUsage'

/** E2B's `SandboxMetric`: one sample of a sandbox's use, as GET /sandboxes/{id}/metrics lists them. */
export interface SandboxMetric {
  timestamp: string
  timestampUnix: number
  cpuCount: number
  /** Of all its CPUs together: 100 is every CPU busy. */
  cpuUsedPct: number
  memUsed: number
  memTotal: number
  diskUsed: number
  diskTotal: number
}

/** What a sandbox has to use: its limits (CPUs may be a fraction), or the machine's. */
export interface SandboxShare {
  cpus: number
  memoryBytes: number
}

export const machineShare: SandboxShare = { cpus: cpus().length, memoryBytes: totalmem() }

/** One sandbox as the sampler sees it. */
export interface Sampled {
  /** Host pids of its processes now. */
  members(): Promise<number[]>
  homeDir: string
  /** The home is a file system of its own (its size limit): what it uses is read, not walked. */
  ownFileSystem?: boolean
  /** What it may use; the machine's when absent. */
  share?: SandboxShare
}

interface History {
  samples: SandboxMetric[]
  /** Counts pauses: a sample begun before one is dropped when it completes (its CPU interval spans it). */
  pauses: number
  /** CPU time and clock at the last sample, for the next one's percentage. */
  last?: { cpuSeconds: number; at: number }
  disk?: { bytes: number; at: number; tookMs: number }
}

export interface MetricsOptions {
  /** Samples kept per sandbox; older ones go first. */
  keep: number
  now: () => number
}

const defaults: MetricsOptions = { keep: 720, now: Date.now }

/**
 * Walking a home for its size is the costly part of a sample: it is walked again only once this
 * many times the last walk's duration has passed, so a big home costs at most a tenth of a core.
 */
const walkEveryWalkTimes = 10

/**
 * The use of each sandbox over time, as E2B's platform keeps it: a sample per tick while the
 * sandbox runs (none while paused), read from /proc for its processes and from its home folder.
 */
export class SandboxMetrics {
  private readonly histories = new Map<string, History>()
  private readonly options: MetricsOptions

  constructor(options: Partial<MetricsOptions> = {}) {
    this.options = { ...defaults, ...options }
  }

  /**
   * Takes a sample of a running sandbox; undefined when the sandbox was paused or forgotten while
   * its processes were read, so no sample of a paused sandbox is kept.
   */
  async sample(id: string, sandbox: Sampled): Promise<SandboxMetric | undefined> {
    const history = this.history(id)
    const pauses = history.pauses
    const usage = await processUsage(await sandbox.members())
    if (this.histories.get(id) !== history || history.pauses !== pauses) return undefined
    const at = this.options.now()
    const { cpus, memoryBytes } = sandbox.share ?? machineShare
    const busy = history.last
      ? Math.max(0, usage.cpuSeconds - history.last.cpuSeconds) /
        Math.max(0.001, (at - history.last.at) / 1000)
      : 0
    history.last = { cpuSeconds: usage.cpuSeconds, at }
    if (sandbox.ownFileSystem) {
      history.disk = { bytes: fileSystemUsedBytes(sandbox.homeDir), at, tookMs: 0 }
    } else if (!history.disk || at - history.disk.at >= history.disk.tookMs * walkEveryWalkTimes) {
      const walkStart = performance.now()
      const bytes = folderBytes(sandbox.homeDir)
      history.disk = { bytes, at, tookMs: performance.now() - walkStart }
    }
    const metric: SandboxMetric = {
      timestamp: new Date(at).toISOString(),
      timestampUnix: Math.floor(at / 1000),
      cpuCount: Math.max(1, Math.ceil(cpus)),
      cpuUsedPct: Math.round(Math.min(100, (busy / cpus) * 100) * 100) / 100,
      memUsed: usage.memoryBytes,
      memTotal: memoryBytes,
      diskUsed: history.disk.bytes,
      diskTotal: fileSystemBytes(sandbox.homeDir),
    }
    history.samples.push(metric)
    if (history.samples.length > this.options.keep) history.samples.shift()
    return metric
  }

  /** The sandbox paused: its next sample starts a new CPU interval (frozen time is not idle time). */
  paused(id: string): void {
    const history = this.histories.get(id)
    if (!history) return
    history.last = undefined
    history.pauses++
  }

  /** The sandbox is gone, and its figures with it. */
  forget(id: string): void {
    this.histories.delete(id)
  }

  /** Samples taken between `start` and `end` (Unix seconds, both included), oldest first. */
  series(id: string, start?: number, end?: number): SandboxMetric[] {
    return (this.histories.get(id)?.samples ?? []).filter(
      (m) =>
        (start === undefined || m.timestampUnix >= start) && (end === undefined || m.timestampUnix <= end),
    )
  }

  private history(id: string): History {
    let history = this.histories.get(id)
    if (!history) {
      history = { samples: [], pauses: 0 }
      this.histories.set(id, history)
    }
    return history
  }
}
