// `npm start` stopped as a terminal and a user stop it: Ctrl-C (SIGINT to its whole process
// group), SIGTERM, a second Ctrl-C while it stops, and kill -9 followed by a restart. Each leaves
// nothing of the stack behind: no mount or loop device under its data folder, no process (its
// group's, or its sandboxes' in their own sessions), no sockets' folder, no claim on the folder.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { loopDevicesUnder, mountsUnder, releaseMountsUnder } from './platform/disk/staleMounts'

const projectRoot = join(import.meta.dirname, '..')
const isRoot = process.getuid?.() === 0

/** A process, told apart from a later one with its pid by its start time. */
interface Proc {
  pid: number
  started: string
  command: string
}

interface Stat {
  ppid: number
  pgrp: number
  state: string
  started: string
}

function stat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = text.slice(text.lastIndexOf(') ') + 2).split(' ')
    return {
      state: fields[0] as string,
      ppid: Number(fields[1]),
      pgrp: Number(fields[2]),
      started: fields[19] as string,
    }
  } catch {
    return undefined
  }
}

function allProcesses(): Map<number, Stat> {
  const all = new Map<number, Stat>()
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    const found = Number.isInteger(pid) ? stat(pid) : undefined
    if (found) all.set(pid, found)
  }
  return all
}

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
  } catch {
    return ''
  }
}

/** `root` and every process under it, whatever session or group they moved to (sandboxes, helpers). */
function processTree(root: number): Proc[] {
  const all = allProcesses()
  const found: Proc[] = []
  const queue = [root]
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    const own = all.get(pid)
    if (own) found.push({ pid, started: own.started, command: commandOf(pid) })
    for (const [child, s] of all) if (s.ppid === pid) queue.push(child)
  }
  return found
}

/** Still running (a zombie has ended: only its parent has not looked yet). */
const lives = (p: Proc) => {
  const now = stat(p.pid)
  return now !== undefined && now.started === p.started && now.state !== 'Z'
}

const groupMembers = (pgrp: number) =>
  [...allProcesses()].filter(([, s]) => s.pgrp === pgrp && s.state !== 'Z').map(([pid]) => pid)

async function waitUntil(what: string, done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

/** `npm start` in a process group of its own, as a terminal runs it. */
class NpmStart {
  readonly child: ChildProcess
  output = ''
  url = ''
  readonly apiKey = `stop-test-${process.pid}`
  private readonly exit: Promise<number | null>

  constructor(readonly dataDir: string) {
    this.child = spawn('npm', ['start', '--', '--port', '0', '--data', dataDir], {
      cwd: projectRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SANDBOX_API_KEY: this.apiKey },
    })
    const read = (chunk: Buffer) => {
      this.output += chunk
      for (const [pattern, then] of this.watches) if (pattern.test(this.output)) then()
    }
    this.child.stdout?.on('data', read)
    this.child.stderr?.on('data', read)
    this.exit = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)))
  }

  private readonly watches = new Map<RegExp, () => void>()

  /** Calls `then` as soon as the output matches, in the same turn as the output arrives. */
  when(pattern: RegExp, then: () => void): void {
    this.watches.set(pattern, () => {
      this.watches.delete(pattern)
      then()
    })
  }

  get group(): number {
    return this.child.pid as number
  }

  /** Waits for the banner; the default sandbox is running then. Its id. */
  async ready(): Promise<string> {
    await waitUntil(
      'the banner',
      () => {
        if (this.child.exitCode !== null) throw new Error(`npm start ended:\n${this.output}`)
        return this.output.includes('Sandbox IDE is running')
      },
      180_000,
    )
    this.url = /E2B_API_URL=(\S+)/.exec(this.output)?.[1] ?? ''
    const id = /default sandbox (\w+)/.exec(this.output)?.[1]
    if (!id) throw new Error(`no default sandbox in the banner:\n${this.output}`)
    return id
  }

  async api(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${this.url}${path}`, {
      method,
      headers: { 'X-API-Key': this.apiKey, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  }

  async state(id: string): Promise<{ state: string; processesLost?: boolean }> {
    return (await this.api('GET', `/sandboxes/${id}`)).json() as Promise<{
      state: string
      processesLost?: boolean
    }>
  }

  /** Sends a signal to the whole group, as a terminal's Ctrl-C does. */
  signal(signal: NodeJS.Signals): void {
    process.kill(-this.group, signal)
  }

  /** npm's exit code, once every process of the group has ended too. */
  async exited(): Promise<number | null> {
    const code = await this.exit
    await waitUntil('the process group to end', () => groupMembers(this.group).length === 0)
    return code
  }
}

/** The sockets' folder the stack made in /tmp, as its launcher recorded it. */
const socketsFolder = (dataDir: string) =>
  readFileSync(join(dataDir, 'launcher', 'sockets-folder'), 'utf8').trim()

async function expectNothingLeft(dataDir: string, processes: Proc[], sockets: string): Promise<void> {
  expect(mountsUnder(dataDir), 'mounts under the data folder').toEqual([])
  expect(loopDevicesUnder(dataDir), 'loop devices backed by its images').toEqual([])
  await waitUntil('the stack’s processes to end', () => processes.every((p) => !lives(p)), 5000).catch(
    () => {},
  )
  expect(processes.filter(lives).map((p) => `${p.pid} ${p.command}`)).toEqual([])
  expect(existsSync(sockets), `the sockets' folder ${sockets}`).toBe(false)
  expect(existsSync(join(dataDir, 'stack.pid')), 'the claim on the data folder').toBe(false)
}

describe('stopping npm start', { timeout: 300_000 }, () => {
  const dataDirs: string[] = []
  const stacks: NpmStart[] = []
  const newDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'clean-stop-'))
    dataDirs.push(dir)
    return dir
  }
  const start = (dataDir: string) => {
    const stack = new NpmStart(dataDir)
    stacks.push(stack)
    return stack
  }
  afterEach(async () => {
    // A failed test's stack must not outlive it, nor its mounts.
    for (const stack of stacks.splice(0)) if (groupMembers(stack.group).length) stack.signal('SIGKILL')
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
    const id = await stack.ready()
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
    await expectNothingLeft(dataDir, processes, sockets)
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
    await expectNothingLeft(dataDir, [...seen.values()], socketsFolder(dataDir))
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
        `stack: the stack before this one \\(pid \\d+\\) did not stop; released the ${mountedBefore.length} mounts`,
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
    await expectNothingLeft(dataDir, [...firstProcesses, ...secondProcesses], secondSockets)
  })
})
