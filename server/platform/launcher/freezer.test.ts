// Pause and resume with each freezer this machine supports, and kill(), on real sandboxes.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findCgroupDirs, sandboxGroupParent } from './findCgroupDirs'
import type { FreezerKind } from './freezer'
import { hostPids, pidNamespaceOf } from './procTable'
import { pidNamespaceMembers } from './sandboxMembers'
import { createTestLauncher, type TestLauncher, type TestSandbox } from './testing/launcherFixture'
import { listProcesses as listSandboxProcesses, runBash, startTerminal } from './testing/sandboxCalls'
import { waitFor } from './waitFor'

const ticks = (output: string) => [...output.matchAll(/tick (\d+)/g)].map((m) => Number(m[1]))
const lastTick = (output: string) => ticks(output).at(-1) ?? 0

/** Where a sandbox's cgroup lives for this freezer, if it uses one. */
function groupDir(kind: FreezerKind, id: string): string | undefined {
  const dirs = findCgroupDirs()
  const own = kind === 'cgroup-v2' ? dirs.v2 : kind === 'cgroup-v1' ? dirs.v1Freezer : undefined
  return own && join(own, sandboxGroupParent, id)
}

/** Host pids in the sandbox's PID namespace, and that namespace (found by a scan of all of /proc). */
async function sandboxProcesses(sb: TestSandbox): Promise<{ pids: number[]; namespace: string | undefined }> {
  const pids = await pidNamespaceMembers(sb.pid)()
  return { pids, namespace: pids[0] === undefined ? undefined : await pidNamespaceOf(pids[0]) }
}

const inNamespace = async (namespace: string | undefined) => {
  const pids = await hostPids()
  const namespaces = await Promise.all(pids.map(pidNamespaceOf))
  return pids.filter((_, i) => namespaces[i] === namespace)
}

describe.each<FreezerKind>(['cgroup-v2', 'cgroup-v1', 'signals'])('the %s freezer', (kind) => {
  let kit: TestLauncher | undefined
  let unavailable = ''
  beforeAll(async () => {
    try {
      kit = await createTestLauncher({ freezer: kind })
    } catch (err) {
      // Only a freezer this machine lacks may be skipped; anything else fails the tests.
      if (!String(err).includes('does not work here')) throw err
      unavailable = String(err)
    }
  })
  afterAll(() => kit?.dispose())

  it('stops a running shell and its runtime, and lets them go on where they were', async (ctx) => {
    if (!kit) return ctx.skip(unavailable)
    expect(kit.launcher.freezer).toBe(kind)
    const sb = await kit.launch()
    const term = await startTerminal(sb, '/bin/bash', ['-i'])
    try {
      await term.type('for i in $(seq 1 100000); do echo "tick $i"; sleep 0.1; done\n')
      await waitFor(() => lastTick(term.output()) >= 3, 'the first ticks')
      await sb.freeze()
      await sb.freeze() // idempotent
      await sleep(300) // output already on its way may still land
      const atFreeze = lastTick(term.output())
      await sleep(1000)
      expect(lastTick(term.output())).toBe(atFreeze)
      await expect(listSandboxProcesses(sb, 500)).rejects.toThrow()

      await sb.thaw()
      await sb.thaw()
      await waitFor(() => lastTick(term.output()) >= atFreeze + 3, 'ticks after the thaw')
      // The same loop went on: every number once, in order, none lost, no restart.
      const seen = ticks(term.output())
      expect(seen).toEqual(seen.map((_, i) => i + 1))
      expect(term.output()).not.toMatch(/Stopped|Killed/)
      expect(await listSandboxProcesses(sb, 5000)).toContain(term.pid)
    } finally {
      term.close()
    }
  })

  it('kill() ends every process, frozen ones too, and removes the cgroup', async (ctx) => {
    if (!kit) return ctx.skip(unavailable)
    const sb = await kit.launch()
    expect((await runBash(sb, 'nohup sleep 4343 >/dev/null 2>&1 & echo ok')).stdout).toBe('ok\n')
    const before = await sandboxProcesses(sb)
    expect(before.pids.length).toBeGreaterThanOrEqual(3) // init, runtime, sleep
    // Read from its cgroup where it has one: the same processes, in the same order, as /proc shows.
    expect(await sb.members()).toEqual(before.pids)
    const group = groupDir(kind, sb.id)
    if (group) expect(existsSync(group)).toBe(true)
    await sb.freeze()
    await sb.kill()
    await sb.exited
    expect(await inNamespace(before.namespace)).toEqual([])
    expect(existsSync(`/proc/${sb.pid}`)).toBe(false)
    if (group) expect(existsSync(group)).toBe(false)
    await sb.kill() // idempotent
  })

  it('reports a runtime that dies by itself through exited, and cleans up after it', async (ctx) => {
    if (!kit) return ctx.skip(unavailable)
    const sb = await kit.launch()
    const { pids, namespace } = await sandboxProcesses(sb)
    const runtime = pids.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runtime.mjs'))
    expect(runtime).toBeDefined()
    process.kill(runtime as number, 'SIGKILL')
    await sb.exited
    expect(await inNamespace(namespace)).toEqual([])
    const group = groupDir(kind, sb.id)
    if (group) expect(existsSync(group)).toBe(false)
    expect(kit.logs).toContainEqual(`sandbox ${sb.id}: runtime ended (exit code 137)`)
  })
})
