// What an open IDE page costs the machine while nobody types: its sandbox's runtime and the
// platform answer the page's polls (ports, processes, session), measured from /proc over quiet
// windows, with wetty's server beside it (its page polls nothing).
import { cpuSecondsMatching } from '../processCpu'
import { type Figure, median } from '../table'

/** A sandbox counts as quiet this long after its last keystroke or output (src/sandbox/portWatch.ts). */
const quietAfterMs = 16_000
const windowMs = 10_000
const windows = 3

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** CPU time (ms) used so far by the processes whose command line matches `pattern`. */
const cpuMsOf = (pattern: RegExp) => cpuSecondsMatching(pattern) * 1000

/** CPU time (ms) this process, where the platform runs, has used so far. */
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** CPU of the runtime, the platform and wetty's server, in % of one CPU, while both pages sit open and idle. */
export async function idleCost(): Promise<Figure[]> {
  await sleep(quietAfterMs)
  const runtime: number[] = []
  const platform: number[] = []
  const wetty: number[] = []
  for (let i = 0; i < windows; i++) {
    const before = { runtime: cpuMsOf(/runtime\.mjs/), platform: ownCpuMs(), wetty: cpuMsOf(/bin\/wetty/) }
    await sleep(windowMs)
    const pct = (now: number, then: number) => ((now - then) / windowMs) * 100
    runtime.push(pct(cpuMsOf(/runtime\.mjs/), before.runtime))
    platform.push(pct(ownCpuMs(), before.platform))
    wetty.push(pct(cpuMsOf(/bin\/wetty/), before.wetty))
  }
  return [
    {
      name: 'open IDE page, idle: its sandbox runtime CPU',
      median: median(runtime),
      unit: '% CPU',
      runs: windows,
      note: `platform (and this bench) ${median(platform).toFixed(1)}%, wetty's server ${median(wetty).toFixed(1)}%; ${windowMs / 1000} s windows, quiet for ${quietAfterMs / 1000} s first`,
    },
  ]
}
