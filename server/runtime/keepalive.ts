/** envd's default keepalive interval when the client sends none (seconds). */
const defaultSeconds = 90
/** Upper bound, so a huge value cannot overflow a timer (Node caps timers at ~24.8 days). */
const maxSeconds = 24 * 60 * 60

/**
 * The keepalive interval a stream asked for with `Keepalive-Ping-Interval` (seconds), in ms.
 * Missing or unparsable means 90 s; values below 1 are clamped to 1 s instead of crashing.
 */
export function keepaliveIntervalMs(header: string | null): number {
  const seconds = header === null ? Number.NaN : Number.parseInt(header.trim(), 10)
  if (Number.isNaN(seconds)) return defaultSeconds * 1000
  return Math.min(Math.max(seconds, 1), maxSeconds) * 1000
}
