import { useEffect, useState } from 'react'
import type { SandboxUsage } from '../../contract/ideApiTypes'
import type { SandboxSession } from '../../sandbox/SandboxSession'

/** As often as the platform samples (E2B: every 5 s); no point asking more. */
const pollMs = 5000

/**
 * The sandbox's latest use against its limits while it runs and the page is visible; undefined
 * while unknown (not running, no platform, or the platform could not say).
 */
export function useSandboxUsage(session: SandboxSession, running: boolean): SandboxUsage | undefined {
  const [usage, setUsage] = useState<SandboxUsage | undefined>(undefined)
  useEffect(() => {
    if (!running) {
      setUsage(undefined)
      return
    }
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      if (document.visibilityState === 'visible') {
        try {
          const latest = await session.usage()
          if (!stopped) setUsage(latest ?? undefined)
        } catch {
          // A meter is a nicety: the status line says what matters when the platform is away.
          if (!stopped) setUsage(undefined)
        }
      }
      if (!stopped) timer = setTimeout(poll, pollMs)
    }
    void poll()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [session, running])
  return usage
}
