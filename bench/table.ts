/** One measured figure: a median over runs, with its unit and how it was measured. */
export interface Figure {
  name: string
  median: number
  unit: string
  runs: number
  note?: string
}

/** Median of a non-empty list of samples. */
export function median(samples: number[]): number {
  if (samples.length === 0) throw new Error('median of no samples')
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/** The p-th percentile (0 to 100) of a non-empty list of samples, nearest rank. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** A small seeded generator (mulberry32), so a bench's intervals do not change between printings. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * How sure a ratio of two statistics is: the 5th and 95th percentiles of `stat(a) / stat(b)` over
 * bootstrap resamples of each side (each resampled with replacement, to its own size). A p95 over
 * a few hundred keys rests on its slowest twenty, so one run's ratio can be far from the next;
 * the interval says how far, from the samples themselves.
 */
export function ratioInterval(
  a: number[],
  b: number[],
  stat: (samples: number[]) => number,
  resamples = 2000,
): [number, number] {
  if (a.length === 0 || b.length === 0) throw new Error('a ratio interval needs samples on both sides')
  const random = seededRandom(0x5eed)
  const resample = (samples: number[]) =>
    samples.map(() => samples[Math.floor(random() * samples.length)] as number)
  const ratios: number[] = []
  for (let i = 0; i < resamples; i++) ratios.push(stat(resample(a)) / stat(resample(b)))
  return [percentile(ratios, 5), percentile(ratios, 95)]
}

/** Runs `fn` `runs` times (after one warm-up) and returns the samples it reports. */
export async function sample(runs: number, fn: () => Promise<number> | number): Promise<number[]> {
  await fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) samples.push(await fn())
  return samples
}

/** Prints figures as an aligned table. */
export function printTable(figures: Figure[]): void {
  const rows = figures.map((f) => [
    f.name,
    f.median >= 100 ? f.median.toFixed(0) : f.median.toPrecision(3),
    f.unit,
    String(f.runs),
    f.note ?? '',
  ])
  const head = ['figure', 'median', 'unit', 'runs', 'note']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ')
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const r of rows) console.log(line(r))
}
