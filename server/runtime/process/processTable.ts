import type { ProcessSelector } from '../../../src/gen/process_pb'
import { notFound, unimplemented } from '../errors'
import type { ManagedProcess } from './managedProcess'

/** How long a finished process's end stays available to Connect (as envd). */
export const retainEndedMs = 30_000

/** The processes one runtime started: running ones, and recently ended ones for late Connects. */
export class ProcessTable {
  private readonly running = new Map<number, ManagedProcess>()
  private readonly ended = new Map<number, { process: ManagedProcess; timer: NodeJS.Timeout }>()

  add(process: ManagedProcess): void {
    this.running.set(process.pid, process)
  }

  /** Moves an ended process aside, where Connect still finds it for a while. */
  retire(process: ManagedProcess): void {
    this.running.delete(process.pid)
    const previous = this.ended.get(process.pid)
    if (previous) clearTimeout(previous.timer)
    const timer = setTimeout(() => this.ended.delete(process.pid), retainEndedMs)
    timer.unref()
    this.ended.set(process.pid, { process, timer })
  }

  /** Running processes, oldest first. */
  list(): ManagedProcess[] {
    return [...this.running.values()]
  }

  /** The running process a selector names; `not_found` otherwise. */
  findRunning(selector: ProcessSelector | undefined): ManagedProcess {
    return this.find(selector, false)
  }

  /** The running or recently ended process a selector names; `not_found` otherwise. */
  findAny(selector: ProcessSelector | undefined): ManagedProcess {
    return this.find(selector, true)
  }

  /** Kills every running process and forgets the ended ones. */
  dispose(): void {
    for (const process of this.running.values()) process.signal('SIGKILL')
    for (const { timer } of this.ended.values()) clearTimeout(timer)
    this.ended.clear()
  }

  private find(selector: ProcessSelector | undefined, includeEnded: boolean): ManagedProcess {
    const sel = selector?.selector
    if (!sel || sel.case === undefined) throw unimplemented('invalid process selector: set pid or tag')
    const candidates = includeEnded
      ? [...this.running.values(), ...[...this.ended.values()].map((e) => e.process)]
      : [...this.running.values()]
    const found =
      sel.case === 'pid'
        ? candidates.find((p) => p.pid === sel.value)
        : candidates.find((p) => p.tag === sel.value)
    if (!found) throw notFound(`process with ${sel.case} ${sel.value} not found`)
    return found
  }
}
