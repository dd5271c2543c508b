// The fuzz suite: generated requests (methods, headers, content types, credentials, bodies from
// valid to hostile) to every route of every server of the stack, each answered well-formed, with
// an expected status, in bounded time, holding no secret, and leaving its connection usable.
// Seeded: FUZZ_SEED=n replays a run; `npm run fuzz -- --long` (or FUZZ_RUNS=n) makes it longer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerBoundMs, runFuzz } from './fuzzRun'
import { type FuzzStack, startFuzzStack } from './fuzzStack'

const seed = Number(process.env.FUZZ_SEED ?? 20261124)
const runs = Number(process.env.FUZZ_RUNS ?? 3000)

describe('fuzz: every route of every server', () => {
  let stack: FuzzStack

  beforeAll(async () => {
    stack = await startFuzzStack()
  }, 60_000)
  afterAll(() => stack?.close())

  it(`answers ${runs} generated requests (seed ${seed}) well and keeps every connection usable`, async () => {
    const stats = await runFuzz(stack.targets, { seed, runs, hostSecret: stack.hostSecret })
    console.log(
      `fuzz: ${stats.requests} requests in ${stats.seconds.toFixed(1)} s (seed ${seed}); slowest ${stats.slowest.ms.toFixed(0)} ms: ${stats.slowest.request.slice(0, 160)}`,
    )
    expect(stats.requests).toBe(runs)
    expect(stats.slowest.ms).toBeLessThan(answerBoundMs)
  }, 3_600_000)

  it('leaves the platform and every sandbox alive and answering', async () => {
    const { tp, targets } = stack
    expect((await tp.api('GET', '/v2/sandboxes')).status).toBe(200)
    for (const { id, accessToken } of targets.sandboxes) {
      expect(tp.platform.manager.route(id).kind).toBe('running')
      const res = await fetch(`${tp.url}/filesystem.Filesystem/ListDir`, {
        method: 'POST',
        headers: { 'E2b-Sandbox-Id': id, 'X-Access-Token': accessToken, 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: '/home/user' }),
      })
      expect(res.status, id).toBe(200)
    }
  })
})
