import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** One host process as /proc/<pid>/stat describes it. */
export interface ProcEntry {
  pid: number
  ppid: number
  /** R, S, D, T (stopped), t (traced), Z ... */
  state: string
}

/**
 * The fields of /proc/<pid>/stat after the command name, the first being the state (field 3 of
 * proc(5)); undefined once the process is gone.
 */
export function procStatFields(pid: number): string[] | undefined {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // The command name sits in parentheses and may itself hold spaces and parentheses.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

/** A process's pid, parent and state, or undefined once it is gone. */
export function readProcEntry(pid: number): ProcEntry | undefined {
  const fields = procStatFields(pid)
  return fields && { pid, ppid: Number(fields[1]), state: fields[0] ?? '?' }
}

/** Every process on the host. */
export function listProcesses(): ProcEntry[] {
  const entries: ProcEntry[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const entry = readProcEntry(Number(name))
    if (entry) entries.push(entry)
  }
  return entries
}

/** The PID namespace a process is in (e.g. `pid:[4026532301]`), or undefined once it is gone. */
export function pidNamespaceOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`)
  } catch {
    return undefined
  }
}

/** Orders pids so that every parent comes before its children. */
export function parentsFirst(entries: ProcEntry[]): number[] {
  const byPid = new Map(entries.map((e) => [e.pid, e]))
  const depth = new Map<number, number>()
  const depthOf = (pid: number): number => {
    const known = depth.get(pid)
    if (known !== undefined) return known
    depth.set(pid, 0) // guards against a cycle from pid reuse between reads
    const parent = byPid.get(pid)?.ppid
    const d = parent !== undefined && byPid.has(parent) ? depthOf(parent) + 1 : 0
    depth.set(pid, d)
    return d
  }
  return entries.map((e) => e.pid).sort((a, b) => depthOf(a) - depthOf(b) || a - b)
}
