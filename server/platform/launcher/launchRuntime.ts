import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import type { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import type { SandboxLimits } from '../../config'
import type { Freezer, SandboxFreezer } from './freezer'
import { runtimeEnvironment } from './runtimeInvocation'
import type { LaunchedSandbox } from './sandboxLauncher'
import type { LimitEnforcer, LimitGroups } from './sandboxLimits'
import { descendantMembers, pidNamespaceMembers } from './sandboxMembers'
import { signalQuietly } from './signalQuietly'

/** One runtime to start: the command, what it reads on stdin, and how to hold its processes. */
export interface RuntimeLaunch {
  id: string
  /** Program and arguments (bwrap and its options, or node directly). */
  command: string
  args: string[]
  /**
   * More arguments, written NUL-terminated to the command's fd 4 (bwrap's `--args 4`): the
   * sandbox's init then shows no host paths in its command line.
   */
  argsOnFd4?: string[]
  /** Secrets for the runtime's stdin. */
  stdin: string
  freezer: Freezer
  /** Where the sandbox's processes are: a PID namespace of their own, or under the runtime. */
  scope: 'pid-namespace' | 'descendants'
  log: (line: string) => void
  startTimeoutMs?: number
  /**
   * Gives the sandbox its network before its runtime starts, from the host pid of its init
   * (bwrap's --info-fd and --block-fd, `sandboxInfoFd` and `sandboxBlockFd`); returns how to
   * take the network down again.
   */
  network?: (initPid: number) => Promise<() => void>
  /** The Unix socket (a host path) the runtime listens on besides its port. */
  socketPath?: string
  /** The sandbox's CPU, memory and process limits, and what sets them. */
  limits?: { enforcer: LimitEnforcer; values: SandboxLimits }
}

/** The fd bwrap writes the sandbox's pids to (JSON), once its namespaces exist. */
export const sandboxInfoFd = 5
/** The fd bwrap waits on before it starts the sandbox's command. */
export const sandboxBlockFd = 6

/**
 * Holds the command until the launcher has put its pid into the freezer's group, so that
 * everything it starts is born inside; fd 3 says when. `exec` keeps the pid.
 */
const gateScript = 'read -r go <&3 && exec "$@" 3<&-'

const listeningLine = /^runtime: listening on http:\/\/127\.0\.0\.1:(\d+)\b/

/** How many lines of the runtime's stderr a start failure quotes. */
const stderrTailLines = 20

function spawnGated(launch: RuntimeLaunch): ChildProcess {
  const networkFds = launch.network ? (['pipe', 'pipe'] as const) : []
  return spawn('/bin/sh', ['-c', gateScript, 'sandbox-gate', launch.command, ...launch.args], {
    stdio: ['pipe', 'pipe', 'pipe', 'pipe', launch.argsOnFd4 ? 'pipe' : 'ignore', ...networkFds],
    env: runtimeEnvironment,
    // Not the platform's folder: the sandbox's init would show it as its working directory.
    cwd: '/',
    // Its own session: a Ctrl-C meant for the platform does not reach the sandboxes.
    detached: true,
  })
}

/**
 * Waits until bwrap has brought up the sandbox's loopback (it does so after reporting its pids,
 * before reading the block fd): a network helper that configures `lo` as well (slirp4netns
 * does) would otherwise race it, and bwrap gives up on its own setup then. Up, `lo` has `::1`.
 */
async function loopbackUp(initPid: number): Promise<void> {
  const deadline = Date.now() + 2000
  while (Date.now() < deadline) {
    try {
      if (/\slo$/m.test(readFileSync(`/proc/${initPid}/net/if_inet6`, 'utf8'))) return
    } catch {
      return
    }
    await sleep(2)
  }
}

/** Takes a process out of the out-of-memory killer's choices, where the platform may (root). */
function shieldFromOom(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/oom_score_adj`, '-1000')
  } catch {}
}

/** Reads the sandbox's init pid from bwrap's info fd, sets up its network, then lets it start. */
async function joinNetwork(
  child: ChildProcess,
  network: (initPid: number) => Promise<() => void>,
): Promise<() => void> {
  const pipes: readonly unknown[] = child.stdio
  // Extra stdio "pipes" are socket pairs: bwrap closing its end is a reset, not an error here.
  const info = pipes[sandboxInfoFd] as NodeJS.ReadableStream
  const block = pipes[sandboxBlockFd] as Writable
  info.on('error', () => {})
  block.on('error', () => {})
  const json = await new Promise<string>((resolve) => {
    let text = ''
    info.on('data', (chunk) => {
      text += String(chunk)
      if (text.includes('}')) resolve(text)
    })
    info.on('end', () => resolve(text))
    info.on('close', () => resolve(text))
  })
  const initPid = Number(/"child-pid":\s*(\d+)/.exec(json)?.[1])
  if (!Number.isInteger(initPid) || initPid <= 0)
    throw new Error(`bwrap gave no pid (${json.trim() || 'nothing'})`)
  await loopbackUp(initPid)
  const takeDown = await network(initPid)
  block.end('go\n')
  return takeDown
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`
}

/** Starts one sandbox's runtime, resolves once it listens (with its port), rejects with why not. */
export async function launchRuntime(launch: RuntimeLaunch): Promise<LaunchedSandbox> {
  const { id, log } = launch
  const child = spawnGated(launch)
  const gate = child.stdio[3] as Writable
  const argsPipe = child.stdio[4] as Writable | null
  // Writes to a child that died early fail with EPIPE; its exit is reported instead.
  child.stdin?.on('error', () => {})
  gate.on('error', () => {})
  argsPipe?.on('error', () => {})
  const pid = child.pid
  if (pid === undefined) {
    const err = await new Promise<Error>((resolve) => child.once('error', resolve))
    throw new Error(`sandbox ${id}: cannot start the runtime: ${err.message}`)
  }

  let exitStatus: string | undefined
  const childExit = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      exitStatus = describeExit(code, signal)
      resolve(exitStatus)
    })
  })

  let freezer: SandboxFreezer
  /** The cgroup the sandbox's processes are born in, once one is known: members are read from it. */
  let group: string | undefined
  const members =
    launch.scope === 'pid-namespace'
      ? pidNamespaceMembers(pid, () => group)
      : descendantMembers(pid, () => group)
  try {
    freezer = await launch.freezer.attach(id, pid, members)
    group = freezer.group
  } catch (err) {
    child.kill('SIGKILL')
    await childExit
    throw new Error(`sandbox ${id}: cannot prepare the ${launch.freezer.kind} freezer: ${String(err)}`)
  }
  let limits: LimitGroups = { release: async () => {} }
  if (launch.limits) {
    try {
      limits = await launch.limits.enforcer.attach(id, pid, launch.limits.values)
      group ??= limits.group
    } catch (err) {
      child.kill('SIGKILL')
      await childExit
      await freezer.release().catch(() => {})
      throw new Error(`sandbox ${id}: cannot set its limits: ${String(err)}`)
    }
  }
  /** Ends what is left of the sandbox's processes, and lets go of its freezer and limit groups. */
  const releaseGroups = async () => {
    await freezer.killAll()
    await freezer.release()
    await limits.release()
  }
  gate.end('go\n')
  argsPipe?.end(launch.argsOnFd4?.map((arg) => `${arg}\0`).join(''))
  // Read from the start: what bwrap says before the runtime runs explains a failed network too.
  const stderrTail: string[] = []
  let onListening: (port: number) => void = () => {}
  const listening = new Promise<number>((resolve) => {
    onListening = resolve
  })
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    log(`sandbox ${id}: ${line}`)
    const port = listeningLine.exec(line)?.[1]
    if (port) onListening(Number(port))
  })
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
    log(`sandbox ${id}: ${line}`)
    stderrTail.push(line)
    if (stderrTail.length > stderrTailLines) stderrTail.shift()
  })

  let takeNetworkDown = () => {}
  if (launch.network) {
    try {
      takeNetworkDown = await joinNetwork(child, launch.network)
    } catch (err) {
      child.kill('SIGKILL')
      await childExit
      await releaseGroups().catch(() => {})
      const tail = stderrTail.length ? `:\n${stderrTail.join('\n')}` : ''
      throw new Error(
        `sandbox ${id}: cannot give it a network: ${err instanceof Error ? err.message : String(err)}${tail}`,
      )
    }
  }
  // The runtime's secrets only now: bwrap goes on when its block fd closes, so a stack killed
  // while it set the network up would leave a sandbox running for nobody; without its secrets on
  // stdin the runtime ends at once, and the sandbox with it.
  child.stdin?.end(launch.stdin)

  // Once the runtime is gone, nothing of the sandbox may stay: orphans left in its group go too.
  const exited = childExit.then(async (status) => {
    log(`sandbox ${id}: runtime ended (${status})`)
    takeNetworkDown()
    try {
      await releaseGroups()
    } catch (err) {
      log(`sandbox ${id}: cleanup after exit failed: ${String(err)}`)
    }
  })

  const timeoutMs = launch.startTimeoutMs ?? 30_000
  let timer: NodeJS.Timeout | undefined
  const outcome = await Promise.race([
    listening,
    childExit.then((status) => new Error(`the runtime ended before listening (${status})`)),
    new Promise<Error>((resolve) => {
      timer = setTimeout(
        () => resolve(new Error(`the runtime did not listen within ${timeoutMs} ms`)),
        timeoutMs,
      )
    }),
  ])
  clearTimeout(timer)
  if (outcome instanceof Error) {
    child.kill('SIGKILL')
    await exited
    const tail = stderrTail.length ? `:\n${stderrTail.join('\n')}` : ''
    throw new Error(`sandbox ${id}: ${outcome.message}${tail}`)
  }
  // Learn the sandbox's PID namespace while its init surely lives; it is never guessed later.
  // Its init and runtime, the first two (only the runtime without a namespace), are shielded
  // from the out-of-memory killer: a sandbox at its memory limit loses a process of its own.
  for (const member of (await members()).slice(0, launch.scope === 'pid-namespace' ? 2 : 1))
    shieldFromOom(member)

  let frozen = false
  let queue: Promise<void> = Promise.resolve()
  /** Freeze, thaw and kill run one at a time, in the order asked. */
  const serially = (step: () => Promise<void>) => {
    const next = queue.then(step)
    queue = next.catch(() => {})
    return next
  }
  let killing: Promise<void> | undefined
  const killSandbox = async () => {
    // Killing the sandbox's init first lets the kernel end and reap the whole PID namespace
    // under it; killed together with bwrap, orphans would wait for the host's init to reap them.
    const init = launch.scope === 'pid-namespace' ? (await members())[0] : undefined
    if (init !== undefined) {
      signalQuietly(init, 'SIGKILL')
      // A frozen init cannot die (cgroup v1) or be reaped (bwrap frozen too) until thawed.
      if (frozen) await freezer.thaw()
      await Promise.race([childExit, sleep(5000)])
    }
    await freezer.killAll()
    child.kill('SIGKILL')
  }
  return {
    port: outcome,
    ...(launch.socketPath ? { socketPath: launch.socketPath } : {}),
    pid,
    exited,
    members,
    freeze: () =>
      serially(async () => {
        if (frozen || exitStatus || killing) return
        await freezer.freeze()
        frozen = true
        log(`sandbox ${id}: frozen`)
      }),
    thaw: () =>
      serially(async () => {
        if (!frozen || exitStatus || killing) return
        await freezer.thaw()
        frozen = false
        log(`sandbox ${id}: thawed`)
      }),
    kill: () => {
      killing ??= (async () => {
        if (!exitStatus) await killSandbox()
        await exited
      })()
      return killing
    },
  }
}
