import { readFileSync } from 'node:fs'
import type { ProcessIO } from './spawnProcess'

/**
 * Reads how many processes the kernel killed for want of memory in this sandbox, from its memory
 * cgroup's `oom_kill` line (v1 `memory.oom_control`, v2 `memory.events`), which the platform binds
 * in read-only; undefined where there is none (no limit, or a runtime run alone).
 */
export function oomKillCounter(path: string | undefined): () => number | undefined {
  if (!path) return () => undefined
  return () => {
    try {
      const count = /^oom_kill (\d+)$/m.exec(readFileSync(path, 'utf8'))?.[1]
      return count === undefined ? undefined : Number(count)
    } catch {
      return undefined
    }
  }
}

/**
 * The process's I/O, with its exit told as out of memory when the kernel's OOM killer ended it
 * (SIGKILL while the sandbox's OOM count rose): `status` stays envd's "signal: killed", and
 * `error` says why, as Go's Wait() error would carry the reason.
 */
export function reportingOom(io: ProcessIO, oomKills: () => number | undefined): ProcessIO {
  const before = oomKills()
  if (before === undefined) return io
  const reporting: ProcessIO = Object.create(io)
  reporting.onExit = (listener) =>
    io.onExit((status) => {
      const after = oomKills()
      const outOfMemory = status.status === 'signal: killed' && after !== undefined && after > before
      listener(outOfMemory ? { ...status, error: 'signal: killed (the sandbox ran out of memory)' } : status)
    })
  return reporting
}
