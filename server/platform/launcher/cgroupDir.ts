import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { signalQuietly } from './signalQuietly'
import { waitFor } from './waitFor'

/** One sandbox's cgroup folder (v1 or v2: both keep members in cgroup.procs). */
export class CgroupDir {
  constructor(readonly path: string) {}

  exists(): boolean {
    return existsSync(this.path)
  }

  create(): void {
    mkdirSync(this.path, { recursive: true })
  }

  /** Moves a process in; the children it forks from now on are born inside. */
  add(pid: number): void {
    this.write('cgroup.procs', String(pid))
  }

  pids(): number[] {
    try {
      return this.read('cgroup.procs').split('\n').filter(Boolean).map(Number)
    } catch {
      return []
    }
  }

  read(file: string): string {
    return readFileSync(join(this.path, file), 'utf8').trim()
  }

  write(file: string, value: string): void {
    writeFileSync(join(this.path, file), value)
  }

  has(file: string): boolean {
    return existsSync(join(this.path, file))
  }

  /** SIGKILLs members until none is left; `beforeWait` lets frozen ones go so the kill lands. */
  async killMembers(beforeWait: () => void): Promise<void> {
    for (const pid of this.pids()) signalQuietly(pid, 'SIGKILL')
    beforeWait()
    await waitFor(() => {
      const left = this.pids()
      for (const pid of left) signalQuietly(pid, 'SIGKILL')
      return left.length === 0
    }, `the processes of ${this.path} to end`)
  }

  /** Removes the folder; it may stay busy for a moment after its last process exited. */
  async remove(): Promise<void> {
    if (!this.exists()) return
    await waitFor(
      () => {
        try {
          rmdirSync(this.path)
          return true
        } catch (err) {
          return (err as NodeJS.ErrnoException).code === 'ENOENT'
        }
      },
      `${this.path} to be removable`,
      { timeoutMs: 5000, intervalMs: 20 },
    )
  }
}
