import { describe, expect, it } from 'vitest'
import { SandboxError } from '../../sandbox/sandboxError'
import type { ProcessInfo, ProcessSignal } from '../../sandbox/sandboxProcesses'
import { type SignalClient, stopProcess } from './stopProcess'

/** A runtime with one process that reacts to signals as told; records what it was sent. */
function runtime(pid: number, reacts: { term: boolean; kill: boolean }, failWith?: SandboxError) {
  let running = true
  const sent: ProcessSignal[] = []
  const client: SignalClient = {
    async list() {
      return running ? [{ pid } as ProcessInfo] : []
    },
    async signal(to, signal) {
      if (failWith) throw failWith
      if (!running || to !== pid) return false
      sent.push(signal)
      if (signal === 'SIGTERM' && reacts.term) running = false
      if (signal === 'SIGKILL' && reacts.kill) running = false
      return true
    },
  }
  return { client, sent }
}

const fast = { graceMs: 1000, pollMs: 250, sleep: async () => {} }

describe('stopProcess', () => {
  it('stops with SIGTERM alone when the process heeds it', async () => {
    const { client, sent } = runtime(7, { term: true, kill: true })
    await expect(stopProcess(client, 7, fast)).resolves.toBe('terminated')
    expect(sent).toEqual(['SIGTERM'])
  })

  it('sends SIGKILL after the grace period when SIGTERM is ignored', async () => {
    const { client, sent } = runtime(7, { term: false, kill: true })
    let escalated = false
    const outcome = stopProcess(client, 7, { ...fast, onEscalate: () => (escalated = true) })
    await expect(outcome).resolves.toBe('killed')
    expect(sent).toEqual(['SIGTERM', 'SIGKILL'])
    expect(escalated).toBe(true)
  })

  it('counts a process that is already gone as stopped', async () => {
    const { client, sent } = runtime(7, { term: true, kill: true })
    await stopProcess(client, 7, fast)
    await expect(stopProcess(client, 7, fast)).resolves.toBe('gone')
    expect(sent).toEqual(['SIGTERM'])
  })

  it('passes on any other error with the server’s message', async () => {
    const { client } = runtime(7, { term: true, kill: true }, new SandboxError('failed', 'boom'))
    await expect(stopProcess(client, 7, fast)).rejects.toThrow('boom')
  })

  it('says so when even SIGKILL leaves the process listed', async () => {
    const { client } = runtime(7, { term: false, kill: false })
    await expect(stopProcess(client, 7, fast)).rejects.toThrow('process 7 is still listed 1 s after SIGKILL')
  })
})
