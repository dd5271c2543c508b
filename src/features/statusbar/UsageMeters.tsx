import type { SandboxUsage } from '../../contract/ideApiTypes'

/** The sandbox's CPU and memory use against its limits, as two small labelled meters. */
export function UsageMeters({ usage }: { usage: NonNullable<SandboxUsage> }) {
  const cpu = Math.round(usage.cpuUsedPct)
  const cpus = `${usage.cpuCount} CPU${usage.cpuCount === 1 ? '' : 's'}`
  return (
    <span className="usage-meters" title={`Sampled ${new Date(usage.at).toLocaleTimeString()}`}>
      <label>
        CPU{' '}
        <meter min={0} max={100} high={90} value={cpu} aria-valuetext={`${cpu}% of ${cpus}`}>
          {cpu}%
        </meter>{' '}
        {cpu}%
      </label>
      <label>
        Memory{' '}
        <meter
          min={0}
          max={usage.memTotalMiB}
          high={usage.memTotalMiB * 0.9}
          value={usage.memUsedMiB}
          aria-valuetext={`${usage.memUsedMiB} of ${usage.memTotalMiB} MB`}
        >
          {usage.memUsedMiB} MB
        </meter>{' '}
        {usage.memUsedMiB} / {usage.memTotalMiB} MB
      </label>
    </span>
  )
}
