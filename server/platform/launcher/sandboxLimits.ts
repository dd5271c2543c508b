import { join } from 'node:path'
import type { SandboxLimits } from '../../config'
import { CgroupDir } from './cgroupDir'
import { findCgroupDirs, type LimitController, limitControllers, sandboxGroupParent } from './findCgroupDirs'
import { withProbeProcess } from './probeProcess'

/** The kernel's groups holding one sandbox's limits. */
export interface LimitGroups {
  /** Removes them; for after the sandbox's processes are gone. */
  release(): Promise<void>
  /** A cgroup folder holding every process of the sandbox, where limits made one. */
  readonly group?: string
}

/** How limits are enforced on this machine, and which. */
export interface LimitEnforcer {
  readonly kind: 'cgroup-v2' | 'cgroup-v1' | 'none'
  readonly enforced: LimitController[]
  /** Why some or all limits are not enforced. */
  readonly warning?: string
  /** Puts `pid` (before it starts anything) into groups holding `limits`. */
  attach(id: string, pid: number, limits: SandboxLimits): Promise<LimitGroups>
  /** The file (on the host) whose `oom_kill N` counts the sandbox's out-of-memory kills, once attached. */
  oomEvents?(id: string): string
}

/**
 * CFS's accounting period: a sandbox may run `cpus` times this, then waits for the next period.
 * Short (10 ms, not the kernel's 100), so a sandbox at its cap never holds every core for long
 * while a neighbour's keystroke waits: measured by `npm run bench -- neighbour`.
 */
const cfsPeriodUs = 10_000
const mib = 1024 * 1024

/** What to write for each controller, in cgroup v1's files and in v2's. */
const settings: Record<
  LimitController,
  (limits: SandboxLimits) => { v1: [string, string][]; v2: [string, string][] }
> = {
  cpu: ({ cpus, cpuWeight = 100 }) => ({
    // A cap of `cpus` CPUs' worth of time per period; within it, a share by weight (v1's shares
    // are v2's weight scaled: 1,024 is 100).
    v1: [
      ['cpu.cfs_period_us', String(cfsPeriodUs)],
      ['cpu.cfs_quota_us', String(Math.round(cpus * cfsPeriodUs))],
      ['cpu.shares', String(Math.max(2, Math.round((cpuWeight * 1024) / 100)))],
    ],
    v2: [
      ['cpu.max', `${Math.round(cpus * cfsPeriodUs)} ${cfsPeriodUs}`],
      ['cpu.weight', String(Math.min(10_000, Math.max(1, Math.round(cpuWeight))))],
    ],
  }),
  memory: ({ memoryMB }) => ({
    v1: [['memory.limit_in_bytes', String(memoryMB * mib)]],
    // No swap beyond the limit: a hog is stopped, not moved to disk at everyone's expense.
    v2: [
      ['memory.max', String(memoryMB * mib)],
      ['memory.swap.max', '0'],
    ],
  }),
  pids: ({ pids }) => ({ v1: [['pids.max', String(pids)]], v2: [['pids.max', String(pids)]] }),
}

/** Writes a setting; an optional one (swap) may be missing where the kernel does not account it. */
function apply(group: CgroupDir, [file, value]: [string, string]): void {
  if (file === 'memory.swap.max' && !group.has(file)) return
  group.write(file, value)
}

/** cgroup v1: one group per controller hierarchy, `<own>/sandbox-ide/<id>` in each. */
function v1Enforcer(
  dirs: Partial<Record<LimitController, string>>,
  controllers: LimitController[],
): LimitEnforcer {
  const memory = dirs.memory
  return {
    kind: 'cgroup-v1',
    enforced: controllers,
    ...(memory && controllers.includes('memory')
      ? { oomEvents: (id: string) => join(memory, sandboxGroupParent, id, 'memory.oom_control') }
      : {}),
    attach: async (id, pid, limits) => {
      const groups: CgroupDir[] = []
      for (const controller of controllers) {
        const group = new CgroupDir(join(dirs[controller] as string, sandboxGroupParent, id))
        // Left by a platform that died: the freezer ends its processes; an empty group goes.
        if (group.exists()) await group.remove().catch(() => {})
        group.create()
        for (const setting of settings[controller](limits).v1) apply(group, setting)
        group.add(pid)
        groups.push(group)
      }
      return {
        release: async () => {
          await Promise.all(groups.map((g) => g.remove().catch(() => {})))
        },
        ...(groups[0] ? { group: groups[0].path } : {}),
      }
    },
  }
}

/**
 * cgroup v2: the controllers enabled for `<own>/sandbox-ide`'s children, and the limits written
 * into the sandbox's group there, the one the v2 freezer makes (`attach` runs after it).
 */
function v2Enforcer(base: string, controllers: LimitController[]): LimitEnforcer {
  return {
    kind: 'cgroup-v2',
    enforced: controllers,
    ...(controllers.includes('memory') ? { oomEvents: (id: string) => join(base, id, 'memory.events') } : {}),
    attach: async (id, _pid, limits) => {
      const group = new CgroupDir(join(base, id))
      for (const controller of controllers)
        for (const setting of settings[controller](limits).v2) apply(group, setting)
      return { release: async () => {}, group: group.path }
    },
  }
}

/** Tries `enforcer` on a throwaway process; throws when any limit cannot be set. */
function tryEnforcer(enforcer: LimitEnforcer): Promise<void> {
  return withProbeProcess(async ({ id, pid, end }) => {
    const groups = await enforcer.attach(id, pid, { cpus: 1, memoryMB: 256, pids: 64 })
    // A group is removed once empty.
    await end()
    await groups.release()
  })
}

/**
 * Picks how to bound sandboxes here: cgroup v1's controllers where they are mounted and writable
 * (as on this kind of machine), else cgroup v2's when the freezer uses v2 and its parent can
 * hand them down. Where neither works, nothing is bounded, and the warning says why.
 */
export async function chooseLimits(freezer: string): Promise<LimitEnforcer> {
  const dirs = findCgroupDirs()
  const reasons: string[] = []
  const v1 = dirs.v1Limits ?? {}
  const v1Controllers = limitControllers.filter((c) => v1[c])
  if (v1Controllers.length > 0) {
    const enforcer = v1Enforcer(v1, v1Controllers)
    try {
      await tryEnforcer(enforcer)
      const missing = limitControllers.filter((c) => !v1Controllers.includes(c))
      return missing.length > 0
        ? { ...enforcer, warning: `no cgroup v1 hierarchy for ${missing.join(', ')}` }
        : enforcer
    } catch (err) {
      reasons.push(`cgroup v1: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  if (dirs.v2 && freezer === 'cgroup-v2') {
    const parent = new CgroupDir(join(dirs.v2, sandboxGroupParent))
    try {
      parent.create()
      const available = parent.read('cgroup.controllers').split(' ')
      const controllers = limitControllers.filter((c) => available.includes(c))
      if (controllers.length === 0) throw new Error('no cpu, memory or pids controller is delegated here')
      parent.write('cgroup.subtree_control', controllers.map((c) => `+${c}`).join(' '))
      return v2Enforcer(parent.path, controllers)
    } catch (err) {
      reasons.push(`cgroup v2: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  return {
    kind: 'none',
    enforced: [],
    warning: `sandboxes have NO CPU, memory or process limits: ${reasons.join('; ') || 'no cgroup hierarchy to set them in'}`,
    attach: async () => ({ release: async () => {} }),
  }
}
