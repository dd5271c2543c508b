import type { SandboxUsage } from '../../../src/contract/ideApiTypes'

/** The figures of one E2B `SandboxMetric` the IDE shows. */
export interface MetricFigures {
  timestamp: string
  cpuCount: number
  cpuUsedPct: number
  memUsed: number
  memTotal: number
}

const mib = 1024 * 1024

/** The latest of a sandbox's metrics as the IDE's meter shows it; null when there are none yet. */
export function latestUsage(metrics: readonly MetricFigures[]): SandboxUsage {
  const last = metrics.at(-1)
  if (!last) return null
  return {
    cpuUsedPct: last.cpuUsedPct,
    cpuCount: last.cpuCount,
    memUsedMiB: Math.round(last.memUsed / mib),
    memTotalMiB: Math.round(last.memTotal / mib),
    at: last.timestamp,
  }
}
