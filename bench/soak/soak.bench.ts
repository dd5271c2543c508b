// A long day (issue 44): a class of 10 on the real local stack for an hour (`--minutes N`), each
// student joined by their link and working through their sandbox's runtime as their page would
// (soakStudent.ts), the teacher's dashboard open and checking everyone now and then
// (soakTeacher.ts), the stack's and every runtime's memory taken every 10 s (stackMemory.ts). The
// stack runs as `npm start` does, in a process of its own, so its memory is its own; the students'
// clients run in this process. At the end the class is ended and the stack stopped, and any of
// their processes still running counts as an error.
import { readFileSync } from 'node:fs'
import { LocalStack } from '../../e2e/localStack'
import { endClass, numberedStudents, startClass } from '../../server/class/classroom'
import { type Figure, seededRandom } from '../table'
import { joinAsStudent } from './joinAsStudent'
import { SoakErrors } from './soakErrors'
import { soakOptions } from './soakOptions'
import { printMinutes, soakRows } from './soakReport'
import { SoakStudent } from './soakStudent'
import { SoakTeacher } from './soakTeacher'
import {
  type MemorySample,
  type ProcessIdentity,
  sampleMemory,
  stackProcesses,
  stillRunning,
} from './stackMemory'

const className = 'soak'
const sampleEveryMs = 10_000
/** How long the stopped stack's processes may take to be gone before they count as left behind. */
const goneWithinMs = 10_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function soakFigures(): Promise<Figure[]> {
  const options = soakOptions(process.argv.slice(2))
  const dayMs = options.minutes * 60_000
  const errors = new SoakErrors()
  const stack = new LocalStack(undefined, [
    '--no-default-sandbox',
    '--max-sandboxes',
    String(options.students + 5),
  ])
  const students: SoakStudent[] = []
  const names = new Map<string, string>()
  const samples: MemorySample[] = []
  let teacher: SoakTeacher | undefined
  let durationMs = 0
  try {
    await stack.start()
    const access = { url: stack.url, apiKey: stack.apiKey, ideToken: stack.ideToken }
    const made = await startClass(access, {
      className,
      template: 'python-basics',
      students: numberedStudents(options.students),
      // Longer than the day: only the pauses the day asks for should happen.
      timeoutSeconds: Math.ceil(dayMs / 1000) + 900,
    })
    if (made.failures.length > 0)
      throw new Error(`${made.failures.length} sandboxes failed: ${made.failures[0]?.error}`)
    const the = new SoakTeacher(stack, className, errors, seededRandom(options.seed))
    teacher = the
    for (const [i, sandbox] of made.sandboxes.entries()) {
      names.set(sandbox.sandboxId, sandbox.student)
      students.push(
        new SoakStudent({
          ide: await joinAsStudent(stack.port, sandbox),
          teacher: the,
          errors,
          random: seededRandom(options.seed * 1000 + i + 1),
          dayMs,
        }),
      )
    }
    await Promise.all(students.map((s) => s.setUp()))

    const pid = stack.pid as number
    const ids = [...names.keys()]
    const startedAt = performance.now()
    const sample = () => {
      try {
        samples.push(sampleMemory(pid, ids, performance.now() - startedAt))
      } catch (err) {
        errors.add('sampler', 'measuring memory', err)
      }
    }
    sample()
    const sampler = setInterval(sample, sampleEveryMs)
    const until = startedAt + dayMs
    await Promise.all([...students.map((s) => s.work(until)), the.teach(until, dayMs)])
    clearInterval(sampler)
    durationMs = performance.now() - startedAt
    noteRuntimeChanges(samples, names, errors)
  } finally {
    for (const s of students) s.close()
    await stopEverything(stack, errors)
  }
  const who = `${options.students} students, ${options.minutes} min, seed ${options.seed}`
  const day = {
    minutes: options.minutes,
    durationMs,
    samples,
    students: names,
    tallies: students.map((s) => s.tally),
    checks: teacher?.checks ?? 0,
    dashboardLooks: teacher?.dashboardLooks ?? 0,
    errors,
  }
  printMinutes(day)
  return soakRows(day, who)
}

/** A runtime that was missing from a sample, or came back as another process, did not live the day through. */
function noteRuntimeChanges(samples: MemorySample[], names: Map<string, string>, errors: SoakErrors): void {
  for (const [id, student] of names) {
    const pids = new Set(samples.map((s) => s.runtimes.get(id)?.pid))
    if (pids.has(undefined))
      errors.add(student, 'measuring memory', 'their runtime was missing from a sample')
    else if (pids.size > 1)
      errors.add(student, 'measuring memory', `their runtime was ${pids.size} processes in turn`)
  }
}

/** Ends the class, stops the stack as Ctrl-C does, and counts what outlived it (processes, mounts). */
async function stopEverything(stack: LocalStack, errors: SoakErrors): Promise<void> {
  const pid = stack.pid
  if (pid === undefined) return stack.dispose()
  const before: ProcessIdentity[] = stackProcesses(pid)
  await endClass({ url: stack.url, apiKey: stack.apiKey }, className).catch((err) =>
    errors.add('teacher', 'ending the class', err),
  )
  await stack.stop()
  // Its sandboxes' homes and systems are mounted under its data folder while they exist.
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter((line) => line.includes(stack.dataDir)).length
  if (mounts > 0) errors.add('stack', 'stopping', `${mounts} mounts under its data folder outlived it`)
  await stack.dispose()
  const deadline = performance.now() + goneWithinMs
  let left = stillRunning(before)
  while (left.length > 0 && performance.now() < deadline) {
    await sleep(250)
    left = stillRunning(left)
  }
  if (left.length > 0)
    errors.add(
      'stack',
      'stopping',
      `${left.length} of its processes outlived it: ${left.map((p) => p.pid).join(', ')}`,
    )
}
