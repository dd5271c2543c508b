import type { SandboxLimits } from '../../config'
import type { SandboxRecord } from '../sandboxRecord'

/** What every view says about the machine and the runtime behind the sandboxes. */
export interface ViewContext {
  envdVersion: string
  isolation: 'bubblewrap' | 'none'
  /** What a sandbox may use (its limits, or the stack's for an older record); diskMB only where enforced. */
  limitsOf(record: SandboxRecord): SandboxLimits
}

/**
 * E2B's machine figures, from the sandbox's limits: whole CPUs (at least one), its memory, and its
 * home's size (0 where its home is a plain folder on the data folder's disk, without a limit).
 */
function machineOf(limits: SandboxLimits) {
  return {
    cpuCount: Math.max(1, Math.ceil(limits.cpus)),
    memoryMB: limits.memoryMB,
    diskSizeMB: limits.diskMB ?? 0,
  }
}

/** E2B's `Sandbox`: the answer to create, connect and resume. */
export function sandboxView(record: SandboxRecord, ctx: ViewContext) {
  return {
    templateID: record.templateID,
    sandboxID: record.sandboxID,
    alias: record.templateID,
    clientID: 'local',
    envdVersion: ctx.envdVersion,
    envdAccessToken: record.envdAccessToken,
    trafficAccessToken: null,
    domain: null,
  }
}

/** E2B's `ListedSandbox`: one row of GET /v2/sandboxes. */
export function listedSandboxView(record: SandboxRecord, ctx: ViewContext) {
  return {
    templateID: record.templateID,
    alias: record.templateID,
    sandboxID: record.sandboxID,
    clientID: 'local',
    startedAt: record.startedAt,
    endAt: record.endAt,
    ...machineOf(ctx.limitsOf(record)),
    metadata: record.metadata,
    state: record.state,
    envdVersion: ctx.envdVersion,
    volumeMounts: [],
  }
}

/**
 * E2B's `SandboxDetail` (GET /sandboxes/{id}), plus what a local platform owes its users:
 * how sandboxes are isolated, and whether a paused one lost its processes (a resume then starts a
 * fresh runtime on the same files).
 */
export function sandboxDetailView(record: SandboxRecord, ctx: ViewContext) {
  return {
    ...listedSandboxView(record, ctx),
    envdAccessToken: record.envdAccessToken,
    allowInternetAccess: !record.offline,
    domain: null,
    // E2B's SandboxLifecycle (the list's rows carry none, as on E2B).
    lifecycle: {
      autoResume: record.autoResume !== undefined,
      onTimeout: record.autoPause ? 'pause' : 'kill',
    },
    isolation: ctx.isolation,
    processesLost: record.processesLost ?? false,
  }
}
