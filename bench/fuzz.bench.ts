// The fuzz suite's pace: generated requests (each followed by a normal one on its connection)
// answered per second against a real stack, and the slowest answer, over three seeded runs.
import { runFuzz } from '../server/fuzz/fuzzRun'
import { startFuzzStack } from '../server/fuzz/fuzzStack'
import { type Figure, median } from './table'

export async function fuzzFigures(): Promise<Figure[]> {
  const stack = await startFuzzStack()
  try {
    const runs = 2000
    const rounds = []
    for (const seed of [1, 2, 3])
      rounds.push(await runFuzz(stack.targets, { seed, runs, hostSecret: stack.hostSecret }))
    const slowest = rounds.reduce((a, b) => (b.slowest.ms > a.slowest.ms ? b : a))
    return [
      {
        name: 'fuzz: generated requests answered per second',
        median: median(rounds.map((r) => r.requests / r.seconds)),
        unit: 'req/s',
        runs: rounds.length,
        note: `${runs} each, seeds 1-3, every one followed by a normal request on its connection`,
      },
      {
        name: 'fuzz: slowest answer of a run',
        median: median(rounds.map((r) => r.slowest.ms)),
        unit: 'ms',
        runs: rounds.length,
        note: `worst ${slowest.slowest.ms.toFixed(0)} ms: ${slowest.slowest.request.slice(0, 90)}`,
      },
    ]
  } finally {
    await stack.close()
  }
}
