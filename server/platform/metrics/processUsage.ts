import { readFile } from 'node:fs/promises'
import { inBatches, readProcStatFields } from '../launcher/procTable'

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

/** One process's CPU ticks and resident pages, or nothing once it has ended. */
async function usageOf(pid: number): Promise<{ ticks: number; pages: number } | undefined> {
  // State is field 3 of proc(5), the first here; utime and stime are fields 14 and 15.
  const fields = await readProcStatFields(pid)
  if (!fields) return undefined
  try {
    const resident = (await readFile(`/proc/${pid}/statm`, 'utf8')).split(' ')[1]
    return { ticks: Number(fields[11]) + Number(fields[12]), pages: Number(resident) }
  } catch {
    return undefined
  }
}

/**
 * Reads /proc for each pid without holding the event loop; a process that ends between the
 * listing and the read is skipped.
 */
export async function processUsage(pids: readonly number[]): Promise<ProcessUsage> {
  let ticks = 0
  let pages = 0
  for (const usage of await inBatches(pids, usageOf)) {
    if (!usage) continue
    ticks += usage.ticks
    pages += usage.pages
  }
  return { cpuSeconds: ticks / ticksPerSecond, memoryBytes: pages * pageBytes }
}
