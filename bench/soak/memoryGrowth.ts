// How much memory grew over a soak, once warm: what the goal (under 10%) is measured on.

/** A value measured `at` ms after the day began. */
export interface Point {
  at: number
  value: number
}

export interface Growth {
  /** (to - from) / from, in percent. */
  percent: number
  from: number
  to: number
  /** Which values were compared, in words for the table. */
  how: string
}

/** Runs this long or more compare the last minute with minute 10; shorter ones compare halves. */
export const longRunMinutes = 20
const settledMinute = 10
const warmUpShare = 0.2

const minuteMs = 60_000

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length
}

/**
 * Minute k's value (k from 1): the median of the samples taken during it, so one sample caught
 * mid-collection does not stand for the minute; undefined for a minute without samples.
 */
export function perMinute(points: readonly Point[], minutes: number): (number | undefined)[] {
  return Array.from({ length: minutes }, (_, k) =>
    median(points.filter((p) => p.at >= k * minuteMs && p.at < (k + 1) * minuteMs).map((p) => p.value)),
  )
}

/**
 * Growth over a run of `durationMs`: the last minute against minute 10 for a run of 20 minutes or
 * more; else the mean of the second half against the first, after the first 20% as a warm-up.
 */
export function growth(points: readonly Point[], durationMs: number): Growth {
  const minutes = Math.floor(durationMs / minuteMs)
  if (minutes >= longRunMinutes) {
    const values = perMinute(points, minutes)
    const from = values[settledMinute - 1]
    const to = values.at(-1)
    if (from === undefined || to === undefined)
      throw new Error('no samples in minute 10 or in the last minute')
    return { percent: ((to - from) / from) * 100, from, to, how: `minute ${minutes} against minute 10` }
  }
  const warm = durationMs * warmUpShare
  const middle = warm + (durationMs - warm) / 2
  const first = points.filter((p) => p.at >= warm && p.at < middle).map((p) => p.value)
  const second = points.filter((p) => p.at >= middle).map((p) => p.value)
  if (first.length === 0 || second.length === 0) throw new Error('too few samples to compare two halves')
  const from = mean(first)
  const to = mean(second)
  return {
    percent: ((to - from) / from) * 100,
    from,
    to,
    how: `second half against first (means), after a 20% warm-up: a run under ${longRunMinutes} min`,
  }
}
