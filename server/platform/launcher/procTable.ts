import { readFileSync } from 'node:fs'
import { readdir, readFile, readlink } from 'node:fs/promises'

/** One host process as /proc/<pid>/stat describes it. */
export interface ProcEntry {
  pid: number
  ppid: number
  /** R, S, D, T (stopped), t (traced), Z ... */
  state: string
}

/**
 * How many /proc files are read at once: the platform's event loop never waits on them (they
 * are read on libuv's threads), and a scan of a busy host leaves room for the platform's own I/O.
 */
const batchSize = 64

/** Runs `read` on every item, at most `batchSize` at once; the results in the items' order. */
export async function inBatches<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  for (let start = 0; start < items.length; start += batchSize) {
    results.push(...(await Promise.all(items.slice(start, start + batchSize).map(read))))
  }
  return results
}

/** The error of a process that ended while we read it (or was gone before). */
function vanished(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ESRCH'
}

/** The fields of a stat line after the command name, which sits in parentheses and may hold both. */
const statFields = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ')

/**
 * The fields of /proc/<pid>/stat after the command name, the first being the state (field 3 of
 * proc(5)); undefined once the process is gone. Synchronous, for measurements of a few processes.
 */
export function procStatFields(pid: number): string[] | undefined {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return undefined
  }
}

/** As `procStatFields`, without holding the event loop. Undefined once the process is gone. */
export async function readProcStatFields(pid: number): Promise<string[] | undefined> {
  try {
    return statFields(await readFile(`/proc/${pid}/stat`, 'utf8'))
  } catch (err) {
    if (vanished(err)) return undefined
    throw err
  }
}

/** A process's pid, parent and state, or undefined once it is gone. */
export async function readProcEntry(pid: number): Promise<ProcEntry | undefined> {
  const fields = await readProcStatFields(pid)
  return fields && { pid, ppid: Number(fields[1]), state: fields[0] ?? '?' }
}

/** The entries of the processes among `pids` that still exist, in the same order. */
export async function readProcEntries(pids: readonly number[]): Promise<ProcEntry[]> {
  const entries = await inBatches(pids, readProcEntry)
  return entries.filter((entry): entry is ProcEntry => entry !== undefined)
}

/** The pid of every process on the host now. */
export async function hostPids(): Promise<number[]> {
  return (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number)
}

/** Every process on the host (those that end during the scan are left out). */
export async function listProcesses(): Promise<ProcEntry[]> {
  return readProcEntries(await hostPids())
}

/**
 * The PID namespace a process is in (e.g. `pid:[4026532301]`), or undefined once it is gone or
 * when it is not ours to look into (another user's).
 */
export async function pidNamespaceOf(pid: number): Promise<string | undefined> {
  try {
    return await readlink(`/proc/${pid}/ns/pid`)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (vanished(err) || code === 'EACCES' || code === 'EPERM') return undefined
    throw err
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
