// Member listing on real process trees: parents first, nothing of the host's, churn tolerated.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cgroupPids } from './cgroupProcs'
import { findCgroupDirs, sandboxGroupParent } from './findCgroupDirs'
import { readProcEntries } from './procTable'
import { descendantMembers, pidNamespaceMembers } from './sandboxMembers'
import { waitFor } from './waitFor'

/**
 * A tree of `sh` under the returned process: the root, a sleep beside a sub-shell, and two
 * sleeps in the sub-shell; `churn` adds a loop that starts and ends a process all the time.
 */
const treeScript = (churn: boolean) =>
  [
    'sleep 300 &',
    "sh -c 'sleep 300 & sleep 300 & wait' &",
    churn ? 'while :; do /bin/true; done &' : '',
    'wait',
  ].join('\n')

const started: ChildProcess[] = []

function start(command: string, args: string[]): ChildProcess {
  // Its own process group, so the whole tree is ended with one signal.
  const child = spawn(command, args, { stdio: 'ignore', detached: true })
  started.push(child)
  return child
}

/** Cgroup folders made by a test, innermost first, removed once their processes are gone. */
const groups: string[] = []

afterEach(async () => {
  for (const child of started.splice(0)) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL')
    } catch {}
  }
  for (const group of groups.splice(0)) {
    await waitFor(async () => (await cgroupPids(group)).length === 0, `${group} to empty`)
    await waitFor(() => {
      try {
        rmdirSync(group)
        return true
      } catch {
        return false
      }
    }, `${group} to be removable`)
  }
})

/**
 * Starts `command` held until it is in a cgroup of its own (as the launcher holds a sandbox), with
 * a group below that one; undefined when this machine has no cgroup hierarchy we may write to.
 */
function startInGroup(
  command: string,
  args: string[],
): { child: ChildProcess; group: string; inner: string } | undefined {
  const dirs = findCgroupDirs()
  const name = `members-test-${randomBytes(6).toString('hex')}`
  for (const base of [dirs.v1Limits?.pids, dirs.v1Freezer, dirs.v2]) {
    if (!base) continue
    const group = join(base, sandboxGroupParent, name)
    const inner = join(group, 'inner')
    try {
      mkdirSync(inner, { recursive: true })
    } catch {
      continue
    }
    groups.push(inner, group)
    const child = spawn('sh', ['-c', 'read -r go && exec "$@"', 'gate', command, ...args], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    })
    started.push(child)
    writeFileSync(join(group, 'cgroup.procs'), String(child.pid))
    child.stdin?.end('go\n')
    return { child, group, inner }
  }
  return undefined
}

/** Moves a process to another cgroup folder. */
const moveTo = (group: string, pid: number) => writeFileSync(join(group, 'cgroup.procs'), String(pid))

/** Each parent among `pids` comes before its children. */
async function expectParentsFirst(pids: number[]): Promise<void> {
  const entries = await readProcEntries(pids)
  const position = new Map(pids.map((pid, i) => [pid, i]))
  for (const { pid, ppid } of entries) {
    const parent = position.get(ppid)
    if (parent !== undefined) expect(parent).toBeLessThan(position.get(pid) as number)
  }
}

describe('descendantMembers', () => {
  it('lists the root and every process below it, parents first', async () => {
    const root = start('sh', ['-c', treeScript(false)]).pid as number
    const members = descendantMembers(root)
    // Root, sleep, sub-shell, its two sleeps.
    await waitFor(async () => (await members()).length === 5, 'the tree to start')
    const pids = await members()
    expect(pids[0]).toBe(root)
    expect(pids).not.toContain(process.pid)
    await expectParentsFirst(pids)
  })

  it('skips processes that end while it looks, and keeps the ones that stay', async () => {
    const root = start('sh', ['-c', treeScript(true)]).pid as number
    const members = descendantMembers(root)
    // Root, sleep, sub-shell, its two sleeps, the loop's sub-shell (and its `true` now and then).
    await waitFor(async () => (await members()).length >= 6, 'the tree to start')
    for (let i = 0; i < 20; i++) {
      const pids = await members()
      expect(pids[0]).toBe(root)
      expect(pids.length).toBeGreaterThanOrEqual(6)
    }
  })

  it('lists nothing once the root is gone', async () => {
    const child = start('sleep', ['300'])
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
    expect(await descendantMembers(child.pid as number)()).toEqual([])
  })
})

/** unshare's arguments for `script` as the init of a new PID namespace (it forks it, as bwrap does). */
const inPidNamespace = (script: string) => [
  '--user',
  '--map-root-user',
  '--pid',
  '--fork',
  'sh',
  '-c',
  script,
]

describe('pidNamespaceMembers', () => {
  it('lists the processes of a PID namespace, its init first, and not the process outside', async (ctx) => {
    // unshare forks the namespace's init (sh) and waits for it, as bwrap does.
    const outer = start('unshare', inPidNamespace(treeScript(false)))
    const exited = new Promise<number | null>((resolve) => outer.once('exit', resolve))
    const members = pidNamespaceMembers(outer.pid as number)
    const ready = waitFor(async () => (await members()).length === 5, 'the namespace to fill')
    const early = await Promise.race([exited.then((code) => ({ code })), ready.then(() => undefined)])
    if (early) return ctx.skip(`unshare cannot make a PID namespace here (exit code ${early.code})`)
    const pids = await members()
    expect(pids).not.toContain(outer.pid)
    const [init] = await readProcEntries(pids.slice(0, 1))
    expect(init?.ppid).toBe(outer.pid)
    await expectParentsFirst(pids)
  })

  it('lists nothing while the outer process has no child in a namespace of its own', async () => {
    const outer = start('sh', ['-c', 'sleep 300; :']).pid as number
    const members = pidNamespaceMembers(outer)
    // Its child (sleep) is in our own PID namespace.
    await waitFor(async () => (await descendantMembers(outer)()).length === 2, 'its child to start')
    expect(await members()).toEqual([])
  })
})

describe('members read from the sandbox’s cgroup', () => {
  it('are the processes of its group and the groups below, not those that left it', async (ctx) => {
    const held = startInGroup('sh', ['-c', treeScript(false)])
    if (!held) return ctx.skip('no cgroup hierarchy is writable here')
    const root = held.child.pid as number
    const fromGroup = descendantMembers(root, () => held.group)
    const fromProc = descendantMembers(root)
    await waitFor(async () => (await fromGroup()).length === 5, 'the tree to start')
    expect(await fromGroup()).toEqual(await fromProc())
    const [, sleeper, subShell] = await fromGroup()
    // One moves to the group below (still the sandbox's), one out (as nothing in a sandbox can).
    moveTo(held.inner, sleeper as number)
    moveTo(dirname(dirname(held.group)), subShell as number) // our own group
    expect(await fromGroup()).toContain(sleeper)
    expect(await fromGroup()).not.toContain(subShell)
    expect(await fromProc()).toContain(subShell)
    await expectParentsFirst(await fromGroup())
  })

  it('of a PID namespace are those /proc shows, its init first', async (ctx) => {
    const held = startInGroup('unshare', inPidNamespace(treeScript(true)))
    if (!held) return ctx.skip('no cgroup hierarchy is writable here')
    const outer = held.child.pid as number
    const exited = new Promise<number | null>((resolve) => held.child.once('exit', resolve))
    const fromGroup = pidNamespaceMembers(outer, () => held.group)
    const fromProc = pidNamespaceMembers(outer)
    // Six that stay (init, sleep, the sub-shell and its two sleeps, the loop's shell), seen by both
    // looks: a short-lived /bin/true of the loop must not stand in for one not started yet.
    const steady = async () => {
      const proc = await fromProc()
      return (await fromGroup()).filter((pid) => proc.includes(pid))
    }
    const twice = async () => {
      if ((await steady()).length < 6) return false
      await new Promise((resolve) => setTimeout(resolve, 50))
      return (await steady()).length >= 6
    }
    const ready = waitFor(twice, 'the namespace to fill')
    const early = await Promise.race([exited.then((code) => ({ code })), ready.then(() => undefined)])
    if (early) return ctx.skip(`unshare cannot make a PID namespace here (exit code ${early.code})`)
    // The churning loop's short-lived processes come and go between two looks: compare the rest.
    const group = await fromGroup()
    const proc = await fromProc()
    const inBoth = group.filter((pid) => proc.includes(pid))
    expect(inBoth.length).toBeGreaterThanOrEqual(6)
    expect(proc.filter((pid) => group.includes(pid))).toEqual(inBoth)
    const [init] = await readProcEntries((await fromGroup()).slice(0, 1))
    expect(init?.ppid).toBe(outer)
    expect(await fromGroup()).not.toContain(outer)
  })

  it('are none once the group is gone', async () => {
    expect(await cgroupPids('/sys/fs/cgroup/no-such-group-here')).toEqual([])
  })
})
