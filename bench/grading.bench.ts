// Thirty students submit within the same minute (issue 42's figures): how long until every
// submission is graded, each in a fresh grader sandbox (as many at once as cores, under nice),
// and what the class's terminal echo is meanwhile. Every student keeps typing at a terminal with
// an open explorer, as in the class bench (its desks and typing, bench/classLoad.bench.ts); the
// stack runs as `npm start` does, in a process of its own.
// `npm run bench -- grading [--students N] [--within S]` (30 students within 60 s by default).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { LocalStack } from '../e2e/localStack'
import { runBash, type SandboxAddress } from '../server/platform/launcher/testing/sandboxCalls'
import { classAtDesks, type Echo, type Keys, typeAway } from './classLoad.bench'
import { type Figure, median, percentile, seededRandom } from './table'

const labs = join(import.meta.dirname, '..', 'server', 'platform', 'class', 'grading', 'testing', 'labs')
/** Typing before the first Submit, for the echo's baseline. */
const quietMs = 20_000
/** Typing after the last grade, so the last window is not cut short. */
const tailMs = 5_000
const solution = 'def total(numbers):\\n    return sum(numbers)\\n'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `--students N` and `--within S` (a smoke run: `--students 3 --within 5`). */
export function gradingOptions(argv: readonly string[]): { students: number; withinSeconds: number } {
  const options = { students: 30, withinSeconds: 60 }
  for (const [flag, key] of [
    ['--students', 'students'],
    ['--within', 'withinSeconds'],
  ] as const) {
    const at = argv.indexOf(flag)
    if (at < 0) continue
    const value = Number(argv[at + 1])
    if (!Number.isInteger(value) || value <= 0)
      throw new Error(`${flag} wants a positive whole number, not '${argv[at + 1] ?? ''}'`)
    options[key] = value
  }
  return options
}

export async function gradingFigures(): Promise<Figure[]> {
  const { students, withinSeconds } = gradingOptions(process.argv.slice(2))
  // The test lab (graded-sum: hidden unittest tests, a JUnit report), with its time limit at a
  // minute, as a teacher would leave room for a busy machine.
  const templates = mkdtempSync(join(tmpdir(), 'bench-grading-labs-'))
  cpSync(join(labs, 'graded-sum'), join(templates, 'graded-sum'), { recursive: true })
  const manifest = join(templates, 'graded-sum', '.lab', 'lab.json')
  writeFileSync(
    manifest,
    readFileSync(manifest, 'utf8').replace('"timeoutSeconds": 5', '"timeoutSeconds": 60'),
  )
  const cores = availableParallelism()
  // Grader sandboxes count against the limit too.
  const stack = new LocalStack(undefined, [
    '--no-default-sandbox',
    '--max-sandboxes',
    String(students + cores + 5),
    '--templates',
    templates,
  ])
  let close = () => {}
  try {
    await stack.start()
    const desks = await classAtDesks(stack, { className: 'grading', template: 'graded-sum', students })
    close = desks.close
    // Half the class solved it; the others submit the starting files. Either is graded in full.
    await Promise.all(
      desks.addresses
        .filter((_, i) => i % 2 === 0)
        .map((a: SandboxAddress) => runBash(a, `printf '${solution}' > ~/solution.py`)),
    )
    await sleep(1000)

    const random = seededRandom(42)
    const echoes: Echo[] = []
    const startedAt = performance.now()
    let stopTyping = Number.POSITIVE_INFINITY
    // Everyone types until the last grade is in, and a little after.
    const typing = desks.terminals.map((t, i) => typeAway(t, desks.keys[i] as Keys, () => stopTyping, echoes))
    await sleep(quietMs)
    const firstSubmit = performance.now()
    const graded: { ms: number; score?: number; error?: string }[] = []
    await Promise.all(
      desks.addresses.map(async ({ sandboxId }) => {
        await sleep(random() * withinSeconds * 1000)
        const from = performance.now()
        const res = await stack.ideApi('POST', `/sandboxes/${sandboxId}/submissions`)
        const body = (await res.json()) as { grade?: { score: number; problem?: string }; message?: string }
        graded.push({
          ms: performance.now() - from,
          ...(res.status === 201 && body.grade && !body.grade.problem
            ? { score: body.grade.score }
            : { error: `${res.status}: ${body.message ?? body.grade?.problem}` }),
        })
      }),
    )
    const allGraded = performance.now()
    stopTyping = allGraded + tailMs
    const lost = (await Promise.all(typing)).reduce((a, b) => a + b, 0)
    const during = echoes.filter((e) => e.at >= firstSubmit && e.at <= allGraded).map((e) => e.ms)
    const quiet = echoes.filter((e) => e.at >= startedAt && e.at < firstSubmit).map((e) => e.ms)
    const failed = graded.filter((g) => g.error)
    const who = `${students} students within ${withinSeconds} s`
    return [
      {
        name: `grading: first Submit to all graded (${who})`,
        median: (allGraded - firstSubmit) / 1000,
        unit: 's',
        runs: 1,
        note: `goal within 180 s; ${cores} graders at once; ${failed.length} not graded${failed[0] ? ` (${failed[0].error})` : ''}`,
      },
      {
        name: `grading: one Submit to its grade (${who})`,
        median: median(graded.map((g) => g.ms)),
        unit: 'ms',
        runs: graded.length,
        note: `p95 ${percentile(
          graded.map((g) => g.ms),
          95,
        ).toFixed(0)} ms, the wait for a grader included`,
      },
      {
        name: `grading: echo p95 while grading (${who})`,
        median: during.length > 0 ? percentile(during, 95) : Number.NaN,
        unit: 'ms',
        runs: during.length,
        note: `goal under 100 ms; before the first Submit p95 ${quiet.length > 0 ? percentile(quiet, 95).toFixed(1) : '–'} ms; lost keystrokes: ${lost}`,
      },
    ]
  } finally {
    close()
    await stack.dispose()
    rmSync(templates, { recursive: true, force: true })
  }
}
