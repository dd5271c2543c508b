// A class at work on one machine (issue 20's figures): each student has a terminal typing five
// keys a second and an open explorer (a recursive watch), through the stack's router as their
// browsers' calls go, for some minutes, while the teacher runs the check for everyone twice.
// The stack runs as `npm start` does, in a process of its own, so its CPU and memory are its own;
// the students' clients run in this process (on a real class they run on thirty laptops).
import { cpus } from 'node:os'
import { LocalStack } from '../e2e/localStack'
import { numberedStudents, startClass } from '../server/class/classroom'
import {
  type SandboxAddress,
  startTerminal,
  streamInput,
  type TerminalSession,
  watchFolder,
} from '../server/platform/launcher/testing/sandboxCalls'
import { treeUse } from './platform.bench'
import { cpuSecondsOf } from './processCpu'
import { type Figure, median, percentile } from './table'

const keyEveryMs = 200
/** A key not echoed by then counts as lost. */
const lostAfterMs = 10_000
const letters = 'abcdefghijklmnopqrstuvwxyz'

/** A key's echo time, and when it was typed. */
export interface Echo {
  at: number
  ms: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How keys go: a StreamInput call held open, as the IDE sends them on the local stack, or a SendInput each. */
export type Keys = (text: string) => Promise<void> | void

/**
 * Types a key every 200 ms until `until` (a time, or asked before each key), timing each one's
 * echo; Ctrl-U every 60 keys keeps the line short.
 */
export async function typeAway(
  terminal: TerminalSession,
  keys: Keys,
  until: number | (() => number),
  echoes: Echo[],
): Promise<number> {
  const end = typeof until === 'function' ? until : () => until
  let lost = 0
  for (let k = 0; performance.now() < end(); k++) {
    if (k > 0 && k % 60 === 0) await keys('\u0015')
    const key = letters[k % letters.length] as string
    const from = terminal.output().length
    const start = performance.now()
    await keys(key)
    while (!terminal.output().slice(from).includes(key)) {
      const left = lostAfterMs - (performance.now() - start)
      if (left <= 0) break
      await Promise.race([terminal.printed(), sleep(left)])
    }
    const took = performance.now() - start
    if (took >= lostAfterMs) lost += 1
    else echoes.push({ at: start, ms: took })
    await sleep(Math.max(0, keyEveryMs - took))
  }
  return lost
}

/**
 * Each student's desk as the class bench sets it: a terminal (bash without rc files) reached
 * through the router, how keys go to it (StreamInput as the IDE sends them, or a SendInput each),
 * and an open recursive watch of their home as an open explorer keeps. Also the grading bench's.
 */
export async function studentDesks(
  stack: LocalStack,
  sandboxIds: readonly string[],
  input: 'stream' | 'send' = 'stream',
): Promise<{ addresses: SandboxAddress[]; terminals: TerminalSession[]; keys: Keys[]; close(): void }> {
  const closers: (() => void)[] = []
  const close = () => {
    for (const c of closers.splice(0)) c()
  }
  try {
    const addresses: SandboxAddress[] = await Promise.all(
      sandboxIds.map(async (sandboxId) => {
        const detail = (await (await stack.api('GET', `/sandboxes/${sandboxId}`)).json()) as {
          envdAccessToken: string
        }
        return { port: stack.port, token: detail.envdAccessToken, sandboxId }
      }),
    )
    const terminals = await Promise.all(addresses.map((a) => startTerminal(a, '/bin/bash', ['--norc'])))
    for (const t of terminals) closers.push(() => t.close())
    const keys: Keys[] = terminals.map((t, i) => {
      if (input === 'send') return (text) => t.type(text)
      const stream = streamInput(addresses[i] as SandboxAddress, t.pid)
      closers.push(stream.close)
      return stream.send
    })
    for (const a of addresses) closers.push((await watchFolder(a, '/home/user')).close)
    return { addresses, terminals, keys, close }
  } catch (err) {
    close()
    throw err
  }
}

/**
 * A class of `students` made from `template` as `npm run class` makes one, each student at their
 * desk (studentDesks): the class bench's, and the grading bench's.
 */
export async function classAtDesks(
  stack: LocalStack,
  {
    className,
    template,
    students,
    input = 'stream',
  }: { className: string; template: string; students: number; input?: 'stream' | 'send' },
): ReturnType<typeof studentDesks> {
  const access = { url: stack.url, apiKey: stack.apiKey, ideToken: stack.ideToken }
  const { sandboxes, failures } = await startClass(access, {
    className,
    template,
    students: numberedStudents(students),
    timeoutSeconds: 3600,
  })
  if (failures.length > 0) throw new Error(`${failures.length} sandboxes failed: ${failures[0]?.error}`)
  return studentDesks(
    stack,
    sandboxes.map((s) => s.sandboxId),
    input,
  )
}

/** One class of `students` at work for `minutes`: its figures. */
export async function classAtWork(
  students: number,
  minutes: number,
  { checks: checkTimes = [1 / 3, 2 / 3], input = 'stream' as 'stream' | 'send' } = {},
): Promise<Figure[]> {
  const stack = new LocalStack(undefined, ['--no-default-sandbox', '--max-sandboxes', String(students + 5)])
  const closers: (() => void)[] = []
  try {
    await stack.start()
    const desks = await classAtDesks(stack, { className: 'load', template: 'python-basics', students, input })
    closers.push(desks.close)
    const { terminals, keys } = desks
    await sleep(1000)

    const pid = stack.pid as number
    const before = treeUse(pid)
    const platformBefore = cpuSecondsOf(pid)
    const clientsBefore = process.cpuUsage()
    const startedAt = performance.now()
    const until = startedAt + minutes * 60_000
    const echoes: Echo[] = []
    const memory: number[] = []
    const sampler = setInterval(() => memory.push(treeUse(pid).rss), 5000)
    // The teacher checks everyone at a third and at two thirds of the time.
    const checks: { from: number; to: number }[] = []
    const teacher = (async () => {
      for (const at of checkTimes) {
        await sleep(Math.max(0, startedAt + at * minutes * 60_000 - performance.now()))
        const from = performance.now()
        const res = await stack.ideApi('POST', '/classes/load/check')
        if (!res.ok) throw new Error(`check for all answered ${res.status}: ${await res.text()}`)
        checks.push({ from, to: performance.now() })
      }
    })()
    const lost = (
      await Promise.all(terminals.map((t, i) => typeAway(t, keys[i] as Keys, until, echoes)))
    ).reduce((a, b) => a + b, 0)
    await teacher
    clearInterval(sampler)
    const wall = (performance.now() - startedAt) / 1000
    const used = treeUse(pid)
    const cores = (used.cpuSeconds - before.cpuSeconds) / wall
    const platformCores = (cpuSecondsOf(pid) - platformBefore) / wall
    const clients = process.cpuUsage(clientsBefore)
    const clientCores = (clients.user + clients.system) / 1e6 / wall
    const who = `${students} students, ${minutes} min`
    const mib = 1024 * 1024
    const all = echoes.map((e) => e.ms)
    const checking = (e: Echo) => checks.some((c) => e.at >= c.from && e.at <= c.to)
    const quiet = echoes.filter((e) => !checking(e)).map((e) => e.ms)
    const during = echoes.filter(checking).map((e) => e.ms)
    const took = checks.map((c) => c.to - c.from)
    return [
      {
        name: `class at work: echo p50 (${who})`,
        median: percentile(all, 50),
        unit: 'ms',
        runs: all.length,
        note: `5 keys/s each by ${input === 'stream' ? 'StreamInput, as the IDE' : 'a SendInput each'}, through the router; lost keystrokes: ${lost}`,
      },
      {
        name: `class at work: echo p95 (${who})`,
        median: percentile(all, 95),
        unit: 'ms',
        runs: all.length,
        note: `goal under 100 ms; p99 ${percentile(all, 99).toFixed(1)} ms`,
      },
      {
        name: `class at work: echo p95 while no check runs (${who})`,
        median: percentile(quiet, 95),
        unit: 'ms',
        runs: quiet.length,
        note: `p50 ${percentile(quiet, 50).toFixed(1)} ms; during the checks p95 ${percentile(during, 95).toFixed(0)} ms`,
      },
      {
        name: `class at work: check for all (${who})`,
        median: took.length > 0 ? median(took) : Number.NaN,
        unit: 'ms',
        runs: took.length,
        note: `each ${took.map((c) => c.toFixed(0)).join(', ')} ms`,
      },
      {
        name: `class at work: the stack's CPU (${who})`,
        median: cores,
        unit: 'cores',
        runs: 1,
        note: `of ${cpus().length}: the platform ${platformCores.toFixed(2)}, the rest runtimes and shells; the clients beside it ${clientCores.toFixed(2)}`,
      },
      {
        name: `class at work: the stack's memory (${who})`,
        median: median(memory) / mib,
        unit: 'MiB',
        runs: memory.length,
        note: `platform, runtimes and shells; ${(median(memory) / mib / students).toFixed(0)} MiB a student`,
      },
    ]
  } finally {
    for (const close of closers) close()
    await stack.dispose()
  }
}

/**
 * Thirty students, then fifty, to say where one machine ends. `BENCH_CLASS_MINUTES` sets how long
 * each class works (5, as the issue asks, by default).
 */
export async function classLoadFigures(): Promise<Figure[]> {
  const minutes = Number(process.env.BENCH_CLASS_MINUTES ?? 5)
  return [...(await classAtWork(30, minutes)), ...(await classAtWork(50, minutes))]
}
