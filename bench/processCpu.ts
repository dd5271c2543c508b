// CPU time of processes from /proc, for figures that weigh what a part of the stack costs.
import { readdirSync, readFileSync } from 'node:fs'
import { procStatFields } from '../server/platform/launcher/procTable'
import { descendantMembers } from '../server/platform/launcher/sandboxMembers'

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

/**
 * CPU time (s) used so far by `root` and every process below it, including descendants that
 * exited and were reaped (their parent's cutime and cstime): short-lived commands such as a
 * flood's `yes` count too. Differences over an interval say what a whole process tree cost.
 */
export async function treeCpuSeconds(root: number): Promise<number> {
  let ticks = 0
  for (const pid of await descendantMembers(root)()) {
    const fields = procStatFields(pid)
    // utime, stime, cutime, cstime: the 12th to 15th fields after the command's name.
    if (fields) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
  }
  return ticks / ticksPerSecond
}

/** The first process at or below `root` whose arguments pass `test`. */
export async function findInTree(
  root: number,
  test: (argv: string[]) => boolean,
): Promise<number | undefined> {
  return (await descendantMembers(root)()).find((pid) => {
    try {
      return test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'))
    } catch {
      return false // gone meanwhile
    }
  })
}
