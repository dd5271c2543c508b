// The stack's memory and each sandbox runtime's, from /proc. The stack's side is the platform
// process and what it runs for sandboxes on the host (bwrap's outer process, slirp4netns, tsx's
// esbuild): every descendant in the platform's own PID namespace that is not a runtime or under
// one. A runtime is the node process each sandbox runs (its argv carries `--access-token`, from
// server/platform/launcher/runtimeInvocation.ts), told apart by the sandbox id it shows.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { basename } from 'node:path'
import { procStatFields } from '../../server/platform/launcher/procTable'

/** One look at the memory, `at` ms after the day began. */
export interface MemorySample {
  at: number
  /** Resident bytes of the platform process alone. */
  platform: number
  /** Resident bytes of the platform and its host-side helpers. */
  stack: number
  /** Each runtime's resident bytes and pid, by sandbox id (or `pid N` where no cgroup names it). */
  runtimes: Map<string, { pid: number; rss: number }>
}

interface Proc {
  pid: number
  ppid: number
  rss: number
}

function readProc(pid: number): Proc | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return {
      pid,
      ppid: Number(status.match(/^PPid:\s+(\d+)/m)?.[1]),
      // Kernel threads and zombies have no VmRSS.
      rss: Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0) * 1024,
    }
  } catch {
    return undefined // gone meanwhile
  }
}

function pidNamespace(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`)
  } catch {
    return undefined
  }
}

function isRuntime(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    return basename(argv[0] ?? '').startsWith('node') && argv.includes('--access-token')
  } catch {
    return false
  }
}

/**
 * The sandbox among `ids` that `pid` runs for: named in its cgroups (the freezer's and the
 * limits' groups are per sandbox), else in its arguments (an unisolated runtime's `--home`), else
 * in its mounts (bwrap binds the sandbox's socket folder).
 */
function sandboxOf(pid: number, ids: readonly string[]): string | undefined {
  for (const file of ['cgroup', 'cmdline', 'mountinfo']) {
    try {
      const text = readFileSync(`/proc/${pid}/${file}`, 'utf8')
      const found = ids.find((id) => text.includes(id))
      if (found) return found
    } catch {
      return undefined // gone meanwhile
    }
  }
  return undefined
}

/** Every process below `root` (not `root` itself), each with its parent. */
function descendants(root: number): Proc[] {
  const children = new Map<number, Proc[]>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const proc = readProc(Number(name))
    if (!proc) continue
    const siblings = children.get(proc.ppid)
    if (siblings) siblings.push(proc)
    else children.set(proc.ppid, [proc])
  }
  const found: Proc[] = []
  const queue = [...(children.get(root) ?? [])]
  for (let next = queue.shift(); next; next = queue.shift()) {
    found.push(next)
    queue.push(...(children.get(next.pid) ?? []))
  }
  return found
}

/** Measures the stack whose platform process is `platformPid`, now. */
export function sampleMemory(platformPid: number, sandboxIds: readonly string[], at: number): MemorySample {
  const own = readProc(platformPid)
  if (!own) throw new Error(`the stack's process ${platformPid} is gone`)
  const hostNamespace = pidNamespace(platformPid)
  const sample: MemorySample = { at, platform: own.rss, stack: own.rss, runtimes: new Map() }
  // Parents come before children, so a sandbox's processes are known as such before theirs.
  const sandboxSide = new Set<number>()
  for (const proc of descendants(platformPid)) {
    const runtime = isRuntime(proc.pid)
    if (runtime) {
      const id = sandboxOf(proc.pid, sandboxIds) ?? `pid ${proc.pid}`
      sample.runtimes.set(id, { pid: proc.pid, rss: proc.rss })
    }
    if (runtime || sandboxSide.has(proc.ppid) || pidNamespace(proc.pid) !== hostNamespace) {
      sandboxSide.add(proc.pid)
      continue
    }
    sample.stack += proc.rss
  }
  return sample
}

/** A process as it was started: its pid and its start time (a pid alone may be reused). */
export interface ProcessIdentity {
  pid: number
  startedAt: string
}

function startTime(pid: number): string | undefined {
  // Field 22 of proc(5), the 20th after the command's name.
  return procStatFields(pid)?.[19]
}

/** Every process at or below `platformPid` now, to say afterwards whether any outlived the stack. */
export function stackProcesses(platformPid: number): ProcessIdentity[] {
  const pids = [platformPid, ...descendants(platformPid).map((p) => p.pid)]
  return pids.flatMap((pid) => {
    const startedAt = startTime(pid)
    return startedAt ? [{ pid, startedAt }] : []
  })
}

/**
 * Those of `processes` still running: the same start time (not a pid reused since), and not a
 * zombie, which holds nothing and waits only for init to reap it.
 */
export function stillRunning(processes: readonly ProcessIdentity[]): ProcessIdentity[] {
  return processes.filter((p) => {
    const fields = procStatFields(p.pid)
    return fields?.[19] === p.startedAt && fields[0] !== 'Z'
  })
}
