// `npm start` stopped as a terminal and a user stop it: Ctrl-C (SIGINT to its whole process
// group), SIGTERM, a second Ctrl-C while it stops, and kill -9 followed by a restart. Each leaves
// nothing of the stack behind: no mount or loop device under its data folder, no process (its
// group's, or its sandboxes' in their own sessions), no sockets' folder, no claim on the folder.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { mountsUnder, releaseMountsUnder } from './platform/disk/staleMounts'
import {
  leftBehind,
  lives,
  type Proc,
  processTree,
  StackProcess,
  socketsFolder,
  waitUntil,
} from './testing/stackProcess'

const isRoot = process.getuid?.() === 0

describe('stopping npm start', { timeout: 300_000 }, () => {
  const dataDirs: string[] = []
  const stacks: StackProcess[] = []
  const newDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'clean-stop-'))
    dataDirs.push(dir)
    return dir
  }
  const start = (dataDir: string) => {
    const stack = new StackProcess(dataDir)
    stacks.push(stack)
    return stack
  }
  afterEach(async () => {
    // A failed test's stack must not outlive it, nor its mounts.
    for (const stack of stacks.splice(0)) if (stack.running) stack.signal('SIGKILL')
    await sleep(500)
    for (const dir of dataDirs.splice(0)) {
      await releaseMountsUnder(dir).catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    }
  })

  /** Starts a stack, signals its group with `signals` once it runs, and checks what is left. */
  async function stopWith(...signals: NodeJS.Signals[]): Promise<string> {
    const dataDir = newDataDir()
    const stack = start(dataDir)
    const id = (await stack.ready()) as string
    expect(await stack.state(id)).toMatchObject({ state: 'running' })
    const processes = processTree(stack.group)
    const sockets = socketsFolder(dataDir)
    if (isRoot) expect(mountsUnder(dataDir).length, 'its home and system are mounted').toBeGreaterThan(0)
    for (const [i, signal] of signals.entries()) {
      // The later ones while it stops.
      if (i > 0) await waitUntil('the stop to begin', () => stack.output.includes('stopping sandboxes'))
      stack.signal(signal)
    }
    expect(await stack.exited(), stack.output).toBe(0)
    expect(stack.output).toMatch(/\] stopped\n/)
    expect(await leftBehind(dataDir, processes, sockets)).toEqual([])
    return stack.output
  }

  it('Ctrl-C (SIGINT to the whole group) leaves nothing behind', async () => {
    await stopWith('SIGINT')
  })

  it('SIGTERM leaves nothing behind', async () => {
    await stopWith('SIGTERM')
  })

  it('a second Ctrl-C while it stops does not cut the stop short', async () => {
    await stopWith('SIGINT', 'SIGINT')
  })

  it('Ctrl-C while it starts (the sandboxes’ system base mounted) waits for the start, then undoes it', async () => {
    const dataDir = newDataDir()
    const stack = start(dataDir)
    // The launcher says how it isolates once it has mounted the sandboxes' system base.
    const mountedAtSignal = await new Promise<string[]>((resolve) =>
      stack.when(/launcher: sandboxes isolated/, () => {
        stack.signal('SIGINT')
        resolve(mountsUnder(dataDir))
      }),
    )
    if (isRoot) expect(mountedAtSignal.length, 'the system base is mounted').toBeGreaterThan(0)
    // Whatever starts from now until the stack is gone, watched as it goes.
    const seen = new Map<string, Proc>()
    const exited = stack.exited()
    let done = false
    void exited.finally(() => {
      done = true
    })
    while (!done) {
      for (const p of processTree(stack.group)) seen.set(`${p.pid} ${p.started}`, p)
      await sleep(20)
    }
    expect(await exited, stack.output).toBe(0)
    expect(stack.output).not.toContain('Sandbox IDE is running')
    expect(stack.output).toMatch(/\] stopped\n/)
    expect(await leftBehind(dataDir, [...seen.values()], socketsFolder(dataDir))).toEqual([])
  })

  it('after kill -9, a restart on the same folder cleans up what was left, and sandboxes come back paused', async () => {
    const dataDir = newDataDir()
    const first = start(dataDir)
    await first.ready()
    const created = await first.api('POST', '/sandboxes', { templateID: 'base', timeout: 600 })
    expect(created.status, await created.clone().text()).toBe(201)
    const { sandboxID: other } = (await created.json()) as { sandboxID: string }
    const firstProcesses = processTree(first.group)
    const firstSockets = socketsFolder(dataDir)
    const mountedBefore = mountsUnder(dataDir)

    first.signal('SIGKILL')
    await first.exited()
    // Its sandboxes end with it (bwrap's --die-with-parent, slirp4netns's exit fd)...
    await waitUntil('the killed stack’s sandboxes to end', () => firstProcesses.every((p) => !lives(p)))
    // ...but their file systems stay mounted: what the next start must clean up.
    expect(mountsUnder(dataDir)).toEqual(mountedBefore)

    const second = start(dataDir)
    await second.ready()
    expect(second.output).toMatch(
      new RegExp(
        `stack: the stack before this one \\(pid \\d+\\) did not stop; cleaned up after it: \\d+ sandboxes still running ended, ${mountedBefore.length} mounts and \\d+ loop devices released`,
      ),
    )
    expect(existsSync(firstSockets), 'the killed stack’s sockets folder').toBe(false)
    expect(await second.state(other)).toMatchObject({ state: 'paused', processesLost: true })
    const resumed = await second.api('POST', `/sandboxes/${other}/connect`, { timeout: 600 })
    expect(resumed.status).toBe(201)
    expect(await second.state(other)).toMatchObject({ state: 'running' })

    // A second stack on the same folder is turned away, leaving the running one alone.
    const intruder = start(dataDir)
    expect(await intruder.exited()).toBe(1)
    expect(intruder.output).toContain(`the data folder ${dataDir} is in use by a stack that is running`)
    expect(await second.state(other)).toMatchObject({ state: 'running' })

    const secondProcesses = processTree(second.group)
    const secondSockets = socketsFolder(dataDir)
    second.signal('SIGINT')
    expect(await second.exited(), second.output).toBe(0)
    expect(await leftBehind(dataDir, [...firstProcesses, ...secondProcesses], secondSockets)).toEqual([])
  })
})
