import { readFileSync } from 'node:fs'
import { procStatFields } from '../launcher/procTable'

/** Linux reports CPU time in clock ticks of 1/100 s on every architecture Node runs on. */
const ticksPerSecond = 100
const pageBytes = 4096

/** What a set of processes uses right now. */
export interface ProcessUsage {
  /** CPU time they have used in all, user and system (a process that ended takes its share along). */
  cpuSeconds: number
  /** Memory resident in RAM, summed (pages shared between them count once per process). */
  memoryBytes: number
}

/** Reads /proc for each pid; a process that ends between the listing and the read is skipped. */
export function processUsage(pids: readonly number[]): ProcessUsage {
  let ticks = 0
  let pages = 0
  for (const pid of pids) {
    // State is field 3 of proc(5), the first here; utime and stime are fields 14 and 15.
    const fields = procStatFields(pid)
    if (!fields) continue
    try {
      const resident = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]
      ticks += Number(fields[11]) + Number(fields[12])
      pages += Number(resident)
    } catch {}
  }
  return { cpuSeconds: ticks / ticksPerSecond, memoryBytes: pages * pageBytes }
}
