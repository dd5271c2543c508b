import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exitStatus } from './exitStatus'
import { oomKillCounter, reportingOom } from './oomReport'
import type { ProcessIO } from './spawnProcess'

/** A process whose exit the test decides. */
function fakeIo() {
  let exit: ((status: ReturnType<typeof exitStatus>) => void) | undefined
  const io = { pid: 7, onExit: (listener: typeof exit) => (exit = listener) } as unknown as ProcessIO
  return { io, end: (code: number | null, signal: NodeJS.Signals | null) => exit?.(exitStatus(code, signal)) }
}

describe('out-of-memory reports', () => {
  it('reads the oom_kill line of cgroup v1 and v2 files, and nothing where there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oom-'))
    const v1 = join(dir, 'memory.oom_control')
    writeFileSync(v1, 'oom_kill_disable 0\nunder_oom 0\noom_kill 3\n')
    const v2 = join(dir, 'memory.events')
    writeFileSync(v2, 'low 0\nhigh 0\nmax 12\noom 2\noom_kill 2\noom_group_kill 0\n')
    expect(oomKillCounter(v1)()).toBe(3)
    expect(oomKillCounter(v2)()).toBe(2)
    expect(oomKillCounter(join(dir, 'missing'))()).toBeUndefined()
    expect(oomKillCounter(undefined)()).toBeUndefined()
    rmSync(dir, { recursive: true })
  })

  it('says "out of memory" only for a SIGKILL while the sandbox’s count rose', () => {
    let count = 0
    const seen: string[] = []
    for (const [signal, rises] of [
      ['SIGKILL', true],
      ['SIGKILL', false],
      ['SIGTERM', true],
    ] as const) {
      const { io, end } = fakeIo()
      reportingOom(io, () => count).onExit((status) => seen.push(status.error ?? status.status))
      if (rises) count++
      end(null, signal)
    }
    expect(seen).toEqual([
      'signal: killed (the sandbox ran out of memory)',
      'signal: killed',
      'signal: terminated',
    ])
    // Without a counter, the process's own I/O is used as it is.
    const { io } = fakeIo()
    expect(reportingOom(io, () => undefined)).toBe(io)
  })
})
