// The local stack as a process of its own, in a process group of its own as a terminal runs it,
// for tests that stop it the ways a user does (Ctrl-C, SIGTERM, kill -9) and look at what is left.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { loopDevicesUnder, mountsUnder } from '../platform/disk/staleMounts'

const projectRoot = join(import.meta.dirname, '..', '..')

/** A process, told apart from a later one with its pid by its start time. */
export interface Proc {
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
export function processTree(root: number): Proc[] {
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
export const lives = (p: Proc) => {
  const now = stat(p.pid)
  return now !== undefined && now.started === p.started && now.state !== 'Z'
}

/** The running members of a process group. */
export const groupMembers = (pgrp: number) =>
  [...allProcesses()].filter(([, s]) => s.pgrp === pgrp && s.state !== 'Z').map(([pid]) => pid)

export async function waitUntil(what: string, done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

/**
 * The stack in a process group of its own: `npm start` itself (`via: 'npm'`, npm and the stack in
 * one group, as a terminal runs them), or the stack's Node process alone (quicker to start).
 */
export class StackProcess {
  readonly child: ChildProcess
  output = ''
  url = ''
  readonly apiKey = `stack-process-${process.pid}`
  private readonly exit: Promise<number | null>
  private readonly watches = new Map<RegExp, () => void>()

  constructor(
    readonly dataDir: string,
    { via = 'npm', args = [] }: { via?: 'npm' | 'node'; args?: string[] } = {},
  ) {
    const stackArgs = ['--port', '0', '--data', dataDir, ...args]
    const [command, commandArgs] =
      via === 'npm'
        ? ['npm', ['start', '--', ...stackArgs]]
        : [
            process.execPath,
            [
              '--single-threaded-gc',
              '--initial-old-space-size=64',
              '--import',
              'tsx',
              'server/cli.ts',
              ...stackArgs,
            ],
          ]
    this.child = spawn(command, commandArgs as string[], {
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

  /** Waits for the banner; the default sandbox's id when it has one. */
  async ready(): Promise<string | undefined> {
    await waitUntil(
      'the banner',
      () => {
        if (this.child.exitCode !== null) throw new Error(`the stack ended:\n${this.output}`)
        return this.output.includes('Sandbox IDE is running')
      },
      180_000,
    )
    this.url = /E2B_API_URL=(\S+)/.exec(this.output)?.[1] ?? ''
    return /default sandbox (\w+)/.exec(this.output)?.[1]
  }

  get port(): number {
    return Number(new URL(this.url).port)
  }

  /** Calls its E2B platform API. */
  api(method: string, path: string, body?: unknown): Promise<Response> {
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

  /** Whether any process of its group still runs. */
  get running(): boolean {
    return groupMembers(this.group).length > 0
  }

  /** The exit code of the process it started, once every process of the group has ended too. */
  async exited(): Promise<number | null> {
    const code = await this.exit
    await waitUntil('the process group to end', () => !this.running)
    return code
  }
}

/** The sockets' folder the stack made in /tmp, as its launcher recorded it. */
export const socketsFolder = (dataDir: string) =>
  readFileSync(join(dataDir, 'launcher', 'sockets-folder'), 'utf8').trim()

/**
 * What a stopped stack left behind, one line each: mounts under its data folder, loop devices
 * backed by its images, `processes` still running (given a few seconds to end), its sockets'
 * folder, its claim on the data folder. Empty when it left nothing.
 */
export async function leftBehind(dataDir: string, processes: Proc[], sockets: string): Promise<string[]> {
  await waitUntil('the stack’s processes to end', () => processes.every((p) => !lives(p)), 5000).catch(
    () => {},
  )
  return [
    ...mountsUnder(dataDir).map((at) => `mounted: ${at}`),
    ...loopDevicesUnder(dataDir).map((device) => `loop device: ${device}`),
    ...processes.filter(lives).map((p) => `process: ${p.pid} ${p.command}`),
    ...(existsSync(sockets) ? [`sockets' folder: ${sockets}`] : []),
    ...(existsSync(join(dataDir, 'stack.pid')) ? ['the claim on the data folder (stack.pid)'] : []),
  ]
}
