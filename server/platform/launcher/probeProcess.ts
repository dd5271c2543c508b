import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'

/** A real process to try a way of holding sandboxes on, with an id no sandbox has. */
export interface ProbeProcess {
  id: string
  pid: number
  /** Kills it and resolves once it is gone. */
  end(): Promise<void>
}

/** Runs `use` on a throwaway process (a `sleep`), and makes sure it is gone afterwards. */
export async function withProbeProcess<T>(use: (probe: ProbeProcess) => Promise<T>): Promise<T> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  const pid = child.pid
  if (pid === undefined) {
    await new Promise((resolve) => child.once('error', resolve))
    throw new Error('cannot start a test process')
  }
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const end = async () => {
    child.kill('SIGKILL')
    await exited
  }
  try {
    return await use({ id: `probe-${randomBytes(6).toString('hex')}`, pid, end })
  } finally {
    child.kill('SIGKILL')
  }
}
