// CPU time of processes from /proc, for figures that weigh what a part of the stack costs.
import { readdirSync, readFileSync } from 'node:fs'
import { procStatFields } from '../server/platform/launcher/procTable'

/** The kernel's clock ticks per second, in which /proc gives CPU time (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100

/** CPU time (user and system, in seconds) that `pid` has used so far; 0 once it is gone. */
export function cpuSecondsOf(pid: number): number {
  const fields = procStatFields(pid)
  // utime and stime: fields 14 and 15 of proc(5), the 12th and 13th after the command's name.
  return fields ? (Number(fields[11]) + Number(fields[12])) / ticksPerSecond : 0
}

/** CPU time (s) used so far by the processes whose command line matches `pattern`. */
export function cpuSecondsMatching(pattern: RegExp): number {
  let seconds = 0
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let commandLine: string
    try {
      commandLine = readFileSync(`/proc/${name}/cmdline`, 'utf8')
    } catch {
      continue // gone meanwhile
    }
    if (pattern.test(commandLine)) seconds += cpuSecondsOf(Number(name))
  }
  return seconds
}

/** `root` and every process below it, with their fields from /proc/<pid>/stat. */
function processTree(root: number): Map<number, string[]> {
  const children = new Map<number, number[]>()
  const stats = new Map<number, string[]>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const fields = procStatFields(Number(name))
    if (!fields) continue
    stats.set(Number(name), fields)
    const ppid = Number(fields[1])
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)])
  }
  const tree = new Map<number, string[]>()
  const visit = (pid: number) => {
    const fields = stats.get(pid)
    if (!fields) return
    tree.set(pid, fields)
    for (const child of children.get(pid) ?? []) visit(child)
  }
  visit(root)
  return tree
}

/**
 * CPU time (s) used so far by `root` and every process below it, including descendants that
 * exited and were reaped (their parent's cutime and cstime): short-lived commands such as a
 * flood's `yes` count too. Differences over an interval say what a whole process tree cost.
 */
export function treeCpuSeconds(root: number): number {
  let ticks = 0
  // utime, stime, cutime, cstime: the 12th to 15th fields after the command's name.
  for (const fields of processTree(root).values())
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
  return ticks / ticksPerSecond
}

/** The first process at or below `root` whose arguments pass `test`. */
export function findInTree(root: number, test: (argv: string[]) => boolean): number | undefined {
  for (const pid of processTree(root).keys()) {
    try {
      if (test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'))) return pid
    } catch {} // gone meanwhile
  }
  return undefined
}
