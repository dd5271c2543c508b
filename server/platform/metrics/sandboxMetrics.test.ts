// Samples read without holding the event loop, and none kept of a sandbox paused or gone meanwhile.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { processUsage } from './processUsage'
import { type Sampled, SandboxMetrics } from './sandboxMetrics'

const home = mkdtempSync(join(tmpdir(), 'metrics-test-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

/** A sandbox whose member listing resolves only when the test says so. */
function heldSandbox(): { sandbox: Sampled; release(): void } {
  let release = () => {}
  const listed = new Promise<number[]>((resolve) => {
    release = () => resolve([process.pid])
  })
  return { sandbox: { members: () => listed, homeDir: home }, release: () => release() }
}

describe('processUsage', () => {
  it('sums what live processes use and skips one that has ended', async () => {
    const child = spawn('true', { stdio: 'ignore' })
    await new Promise((resolve) => child.once('exit', resolve))
    const usage = await processUsage([process.pid, child.pid as number])
    expect(usage.cpuSeconds).toBeGreaterThan(0)
    expect(usage.memoryBytes).toBeGreaterThan(1024 * 1024)
    expect(await processUsage([child.pid as number])).toEqual({ cpuSeconds: 0, memoryBytes: 0 })
  })
})

describe('SandboxMetrics', () => {
  it('keeps a sample of a running sandbox', async () => {
    const metrics = new SandboxMetrics()
    const held = heldSandbox()
    const sample = metrics.sample('a', held.sandbox)
    held.release()
    expect((await sample)?.memUsed).toBeGreaterThan(0)
    expect(metrics.series('a')).toHaveLength(1)
  })

  it('drops a sample begun before a pause, and one of a sandbox forgotten meanwhile', async () => {
    const metrics = new SandboxMetrics()
    const first = heldSandbox()
    const beforePause = metrics.sample('b', first.sandbox)
    metrics.paused('b')
    first.release()
    expect(await beforePause).toBeUndefined()
    expect(metrics.series('b')).toEqual([])

    const second = heldSandbox()
    const beforeForget = metrics.sample('b', second.sandbox)
    metrics.forget('b')
    second.release()
    expect(await beforeForget).toBeUndefined()
    expect(metrics.series('b')).toEqual([])
  })
})
