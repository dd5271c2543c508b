import type { SandboxProcesses } from '../../sandbox/sandboxProcesses'

/** The calls stopping a process needs (the session's processes, or a test's stand-in). */
export type SignalClient = Pick<SandboxProcesses, 'list' | 'signal'>

/** How a stop went: already gone, ended by SIGTERM, or ended by the SIGKILL fallback. */
export type StopOutcome = 'gone' | 'terminated' | 'killed'

export interface StopOptions {
  /** How long a process gets to end after SIGTERM, and to vanish after SIGKILL. */
  graceMs?: number
  /** How often the process list is checked meanwhile. */
  pollMs?: number
  sleep?: (ms: number) => Promise<void>
  /** Called when the grace period ran out and SIGKILL follows. */
  onEscalate?: () => void
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Ends a process: SIGTERM, then SIGKILL if it is still listed after the grace period (an
 * interactive shell, or anything else that ignores SIGTERM). A process that is already gone
 * (`not_found`) counts as stopped; any other error is thrown with the server's message.
 */
export async function stopProcess(
  client: SignalClient,
  pid: number,
  { graceMs = 3000, pollMs = 250, sleep = wait, onEscalate }: StopOptions = {},
): Promise<StopOutcome> {
  // List is the only way to learn that a process ended without holding a stream to it.
  const vanishes = async (): Promise<boolean> => {
    for (let waited = 0; waited < graceMs; waited += pollMs) {
      await sleep(pollMs)
      if (!(await client.list()).some((p) => p.pid === pid)) return true
    }
    return false
  }

  if (!(await client.signal(pid, 'SIGTERM'))) return 'gone'
  if (await vanishes()) return 'terminated'
  onEscalate?.()
  if (!(await client.signal(pid, 'SIGKILL'))) return 'terminated'
  if (await vanishes()) return 'killed'
  throw new Error(`process ${pid} is still listed ${graceMs / 1000} s after SIGKILL`)
}
