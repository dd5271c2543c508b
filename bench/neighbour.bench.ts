// One sandbox burns every CPU it may; do the other 29 still feel quick? Keystroke echo in a
// terminal of each quiet sandbox, with and without the burner, in the same run (issue 24's goal:
// p95 with the burner at most 1.5 times p95 without).
import { setTimeout as sleep } from 'node:timers/promises'
import {
  type SandboxAddress,
  startTerminal,
  type TerminalSession,
} from '../server/platform/launcher/testing/sandboxCalls'
import { startTestPlatform, type TestPlatform } from '../server/platform/testing/platformFixture'
import { runtimePort } from '../server/platform/testing/runtimeBridge'
import { type Figure, percentile } from './table'

const sandboxes = 30
const keysPerSandbox = 10
/** Rounds of calm then noisy echoes. */
const rounds = 3

async function address(tp: TestPlatform, id: string): Promise<SandboxAddress> {
  const route = tp.platform.manager.route(id)
  if (route.kind !== 'running') throw new Error(`sandbox ${id} is ${route.kind}`)
  return { port: await runtimePort(route.runtime), token: route.runtime.accessToken }
}

/** Types a marker into each terminal in turn and times until its echo is back, `keysPerSandbox` rounds. */
async function echoes(terminals: TerminalSession[], round: string): Promise<number[]> {
  const times: number[] = []
  for (let k = 0; k < keysPerSandbox; k++) {
    for (const [i, terminal] of terminals.entries()) {
      const marker = `${round}${k}x${i}y`
      const start = performance.now()
      await terminal.type(marker)
      // Waits for the output to arrive, not in a spin: a spinning bench would hold a core of its
      // own and leave the quiet sandboxes one core to share with the burner.
      while (!terminal.output().includes(marker)) await terminal.printed()
      times.push(performance.now() - start)
      await terminal.type('\u0015') // Ctrl-U: the line stays short
    }
  }
  return times
}

export async function neighbourFigures(): Promise<Figure[]> {
  const tp = await startTestPlatform({ maxSandboxes: sandboxes + 2 })
  const opened: TerminalSession[] = []
  try {
    const ids = await Promise.all(
      Array.from({ length: sandboxes }, async () => {
        const res = await tp.api('POST', '/sandboxes', { timeout: 600 })
        if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`)
        return ((await res.json()) as { sandboxID: string }).sandboxID
      }),
    )
    const [burnerId, ...quietIds] = ids as [string, ...string[]]
    const quiet: TerminalSession[] = []
    for (const id of quietIds) quiet.push(await startTerminal(await address(tp, id), '/bin/bash', ['--norc']))
    opened.push(...quiet)
    const burner = await startTerminal(await address(tp, burnerId), '/bin/bash', ['--norc'])
    opened.push(burner)
    await sleep(500)
    // Calm and noisy rounds alternate, so the shared machine's own ups and downs fall on both.
    const calm: number[] = []
    const noisy: number[] = []
    for (let round = 0; round < rounds; round++) {
      calm.push(...(await echoes(quiet, `a${round}`)))
      await burner.type('for i in $(seq $(nproc)); do (while :; do :; done) & done\n')
      await sleep(1000)
      noisy.push(...(await echoes(quiet, `b${round}`)))
      await burner.type('kill $(jobs -p)\n')
      await sleep(500)
    }
    const { limits } = tp.platform.launcher
    const note = `${sandboxes - 1} sandboxes, ${keysPerSandbox} keys each in ${rounds} rounds; limits: ${limits.kind} (${limits.enforced.join(', ') || 'none'})`
    const ratio = percentile(noisy, 95) / percentile(calm, 95)
    return [
      {
        name: 'echo in a quiet sandbox, p95, no burner',
        median: percentile(calm, 95),
        unit: 'ms',
        runs: calm.length,
        note,
      },
      {
        name: 'echo in a quiet sandbox, p95, a 30th burns every CPU',
        median: percentile(noisy, 95),
        unit: 'ms',
        runs: noisy.length,
        note: `ratio to no burner ${ratio.toFixed(2)} (goal ≤ 1.5); p50 ${percentile(noisy, 50).toFixed(2)} vs ${percentile(calm, 50).toFixed(2)} ms`,
      },
    ]
  } finally {
    for (const terminal of opened) terminal.close()
    await tp.close()
  }
}
