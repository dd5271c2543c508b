import type { Dirent } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

/** What reading a cgroup that is being removed (or is gone) fails with. */
const removed = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENODEV'
}

/**
 * The pids in a cgroup folder and in the groups below it (`cgroup.procs`, in v1 and v2 alike),
 * each once. A removed folder has none: a cgroup can only be removed once it is empty.
 */
export async function cgroupPids(dir: string): Promise<number[]> {
  const pids = new Set<number>()
  const visit = async (folder: string): Promise<void> => {
    let procs: string
    let entries: Dirent[]
    try {
      ;[procs, entries] = await Promise.all([
        readFile(join(folder, 'cgroup.procs'), 'utf8'),
        readdir(folder, { withFileTypes: true }),
      ])
    } catch (err) {
      if (removed(err)) return
      throw err
    }
    // v1 may list a pid twice, and in no particular order.
    for (const line of procs.split('\n')) if (line) pids.add(Number(line))
    await Promise.all(entries.filter((e) => e.isDirectory()).map((e) => visit(join(folder, e.name))))
  }
  await visit(dir)
  return [...pids]
}
