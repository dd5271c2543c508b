import type { Freezer, SandboxFreezer } from './freezer'
import { type ProcEntry, readProcEntry } from './procTable'
import { signalQuietly } from './signalQuietly'
import { waitFor } from './waitFor'

/** Stopped, traced, a zombie, or gone: in no state to fork. */
const stoppedOrGone = (entry: ProcEntry | undefined) =>
  entry === undefined || entry.state === 'T' || entry.state === 't' || entry.state === 'Z'

const isStopped = async (pid: number) => stoppedOrGone(await readProcEntry(pid))

/** Whether every one of `pids` has stopped (or ended). */
const allStopped = async (pids: readonly number[]) => {
  for (const pid of pids) if (!(await isStopped(pid))) return false
  return true
}

/**
 * Freezes sandboxes with SIGSTOP, for machines without a usable cgroup freezer. Parents are
 * stopped before children so none forks past the freeze, and continued after them so a shell
 * never sees its job as stopped. Processes already stopped by someone else stay stopped.
 * Unlike a cgroup freezer, a process can tell (SIGCONT handlers, a parent's wait status).
 */
export function signalFreezer(): Freezer {
  return {
    kind: 'signals',
    attach: async (_id, _pid, members) => {
      /** Pids this freezer stopped, in the order it stopped them. */
      let stopped: number[] = []
      /**
       * Stops every member not stopped yet, a parent before its children; returns how many.
       * A child is stopped only once its parent has really stopped: a shell that is still
       * running when its job stops would report the job as stopped.
       */
      const stopNewcomers = async () => {
        const ours = new Set(stopped)
        let fresh = 0
        for (const pid of await members()) {
          if (ours.has(pid)) continue
          const entry = await readProcEntry(pid)
          if (stoppedOrGone(entry)) continue
          const parent = entry?.ppid
          if (parent !== undefined && ours.has(parent)) {
            await waitFor(() => isStopped(parent), `process ${parent} to stop`, { intervalMs: 2 })
          }
          signalQuietly(pid, 'SIGSTOP')
          stopped.push(pid)
          ours.add(pid)
          fresh++
        }
        return fresh
      }
      const sandbox: SandboxFreezer = {
        freeze: async () => {
          // A process may fork before its SIGSTOP lands: look again until a look finds no one new.
          for (let round = 0; round < 50; round++) {
            if ((await stopNewcomers()) === 0 && round > 0) return
            await waitFor(() => allStopped(stopped), 'the sandbox processes to stop', { intervalMs: 2 })
          }
          throw new Error('the sandbox keeps starting processes faster than they can be stopped')
        },
        thaw: async () => {
          for (const pid of stopped.reverse()) signalQuietly(pid, 'SIGCONT')
          stopped = []
        },
        killAll: async () => {
          await waitFor(async () => {
            const left = await members()
            for (const pid of left) signalQuietly(pid, 'SIGKILL')
            return left.length === 0
          }, 'the sandbox processes to end')
          stopped = []
        },
        release: async () => {},
      }
      return sandbox
    },
  }
}
