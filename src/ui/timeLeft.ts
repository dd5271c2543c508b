import { useEffect, useState } from 'react'
import { formatDuration } from './useNow'

/** Below this, the time left counts down by the second: the moment to extend it. */
export const secondsShownBelowMs = 2 * 60_000

/**
 * The time left before a timeout as the toolbar shows it: "1 h 05 min" or "29 min" (whole
 * minutes, rounded down, so it never promises more than there is), and "1:59" by the second
 * once under two minutes.
 */
export function timeLeftLabel(ms: number): string {
  const left = Math.max(0, ms)
  // Whole seconds, rounded down, as the minutes are.
  if (left < secondsShownBelowMs) return formatDuration(Math.floor(left / 1000) * 1000)
  const minutes = Math.floor(left / 60_000)
  const h = Math.floor(minutes / 60)
  return h > 0 ? `${h} h ${String(minutes % 60).padStart(2, '0')} min` : `${minutes} min`
}

/**
 * How long `timeLeftLabel` keeps showing what it shows with `ms` left: it changes just after
 * that, as the time left drops below a whole minute (or second). Undefined once the time is up.
 */
export function msUntilLabelChanges(ms: number): number | undefined {
  if (ms <= 0) return undefined
  return ms % (ms < secondsShownBelowMs ? 1000 : 60_000)
}

/**
 * The label for the time left until `endAt` (ms since the epoch), redrawn only when its text
 * changes: once a minute, and by the second in the last two. A countdown redrawn every second
 * is a frame every second, which an echo typed in the terminal then waits behind.
 */
export function useTimeLeft(endAt: number | undefined): string | undefined {
  // Only a trigger: the label is worked out from the clock at each render, so a new `endAt`
  // (an extension) shows at once against the time now.
  const [changes, setChanges] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: each change sets the timer for the next
  useEffect(() => {
    if (endAt === undefined) return
    const wait = msUntilLabelChanges(endAt - Date.now())
    if (wait === undefined) return
    // A few ms past the change, so the label worked out then is the new one.
    const timer = setTimeout(() => setChanges((n) => n + 1), wait + 5)
    return () => clearTimeout(timer)
  }, [endAt, changes])
  return endAt === undefined ? undefined : timeLeftLabel(endAt - Date.now())
}
