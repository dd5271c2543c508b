#!/usr/bin/env node
// `npm run fuzz`: the fuzz suite alone (server/fuzz), as `npm test` runs it, or longer.
//   npm run fuzz -- [--long] [--runs N] [--seed N]
// --long is 100,000 generated requests (a few minutes here) instead of 3,000, and 50 kills of the
// stack at random moments of a busy workload instead of 3; --seed replays a run that failed (its
// seed is in the failure's report).
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: { long: { type: 'boolean' }, runs: { type: 'string' }, seed: { type: 'string' } },
  strict: true,
})
const runs = values.runs ?? (values.long ? '100000' : process.env.FUZZ_RUNS)
const seed = values.seed ?? process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31))
console.log(`fuzz: seed ${seed}${runs ? `, ${runs} requests` : ''}`)
const root = join(import.meta.dirname, '..')
const { status } = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), ['run', 'server/fuzz'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    FUZZ_SEED: seed,
    ...(runs ? { FUZZ_RUNS: runs } : {}),
    ...(values.long ? { FUZZ_KILLS: '50' } : {}),
  },
})
process.exit(status ?? 1)
