// The soak's summary: memory minute by minute, then the table's rows with the goal met or not
// (growth under 10% once warm, no error, no lost key).
import type { Figure } from '../table'
import { type Growth, growth, type Point, perMinute } from './memoryGrowth'
import type { SoakErrors } from './soakErrors'
import type { StudentTally } from './soakStudent'
import type { MemorySample } from './stackMemory'

const mib = 1024 * 1024
const growthGoal = 10
const mark = (met: boolean) => (met ? '✓' : '✗')
const inMib = (bytes: number) => (bytes / mib).toFixed(1)

export interface SoakDay {
  minutes: number
  durationMs: number
  samples: MemorySample[]
  /** Sandbox id to student, for the runtimes' columns. */
  students: Map<string, string>
  tallies: StudentTally[]
  checks: number
  dashboardLooks: number
  errors: SoakErrors
}

const series = (samples: MemorySample[], value: (s: MemorySample) => number | undefined): Point[] =>
  samples.flatMap((s) => {
    const v = value(s)
    return v === undefined ? [] : [{ at: s.at, value: v }]
  })

/** Prints the stack's, the platform's and each runtime's memory, one line a minute (medians of its samples). */
export function printMinutes(day: SoakDay): void {
  const ids = [...day.students.keys()]
  const minutes = Math.ceil(day.durationMs / 60_000)
  const stack = perMinute(
    series(day.samples, (s) => s.stack),
    minutes,
  )
  const platform = perMinute(
    series(day.samples, (s) => s.platform),
    minutes,
  )
  const runtimes = ids.map((id) =>
    perMinute(
      series(day.samples, (s) => s.runtimes.get(id)?.rss),
      minutes,
    ),
  )
  const cell = (v: number | undefined) => (v === undefined ? '—' : inMib(v)).padStart(7)
  const label = (id: string) => (day.students.get(id) ?? id).replace(/^student-/, 's')
  console.log("soak: memory each minute, MiB RSS (the median of the minute's samples, one every 10 s)")
  console.log(
    `${'minute'.padStart(6)}${'stack'.padStart(8)}${'platform'.padStart(9)}   runtimes: ${ids.map((id) => label(id).padStart(7)).join('')}`,
  )
  for (let m = 0; m < minutes; m++) {
    console.log(
      `${String(m + 1).padStart(6)} ${cell(stack[m])} ${cell(platform[m]).padStart(8)}             ${runtimes.map((r) => cell(r[m])).join('')}`,
    )
  }
  console.log()
}

/** The table's rows. */
export function soakRows(day: SoakDay, who: string): Figure[] {
  const stack = growth(
    series(day.samples, (s) => s.stack),
    day.durationMs,
  )
  const platform = growth(
    series(day.samples, (s) => s.platform),
    day.durationMs,
  )
  const runtimes = [...day.students].flatMap(([id, student]) => {
    const points = series(day.samples, (s) => s.runtimes.get(id)?.rss)
    try {
      return [{ student, growth: growth(points, day.durationMs) }]
    } catch {
      return [] // no samples of it: its absence is counted as an error already
    }
  })
  const worst = runtimes.reduce<{ student: string; growth: Growth } | undefined>(
    (a, b) => (a && a.growth.percent >= b.growth.percent ? a : b),
    undefined,
  )
  const sum = (key: keyof StudentTally) => day.tallies.reduce((total, t) => total + t[key], 0)
  const keys = sum('keys')
  const lost = sum('lost')
  const misordered = sum('misordered')
  const { errors } = day
  const range = runtimes.map((r) => r.growth.percent)
  return [
    {
      name: `soak: the stack's memory growth (${who})`,
      median: stack.percent,
      unit: '%',
      runs: day.samples.length,
      note: `${mark(stack.percent < growthGoal)} goal under ${growthGoal}%; ${inMib(stack.from)} → ${inMib(stack.to)} MiB (platform, bwrap, slirp4netns, not the runtimes), ${stack.how}; the platform alone ${platform.percent.toFixed(1)}%`,
    },
    {
      name: `soak: the runtime that grew most (${who})`,
      median: worst?.growth.percent ?? Number.NaN,
      unit: '%',
      runs: runtimes.length,
      note: worst
        ? `${mark(worst.growth.percent < growthGoal)} goal under ${growthGoal}%; ${worst.student} ${inMib(worst.growth.from)} → ${inMib(worst.growth.to)} MiB; all ${runtimes.length} from ${Math.min(...range).toFixed(1)}% to ${Math.max(...range).toFixed(1)}%`
        : '✗ no runtime was measured',
    },
    {
      name: `soak: errors (${who})`,
      median: errors.count,
      unit: 'errors',
      runs: sum('lines') + sum('saves') + sum('previews') + sum('pauses') + day.checks + day.dashboardLooks,
      note: `${mark(errors.count === 0)} goal 0${errors.first.length > 0 ? `; first: ${errors.first.join(' | ')}` : ''}`,
    },
    {
      name: `soak: lost keys (${who})`,
      median: lost,
      unit: 'keys',
      runs: keys,
      note: `${mark(lost === 0 && misordered === 0)} goal 0; out of order ${misordered}; ${sum('lines')} lines, ${sum('saves')} saves read back and watched (${sum('watchEvents')} watch events), ${sum('previews')} previews, ${sum('pauses')} pauses, ${day.checks} checks for everyone`,
    },
  ]
}
