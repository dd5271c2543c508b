import { useCallback } from 'react'
import type { SandboxUsage } from '../../contract/ideApiTypes'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { usePolling } from '../../ui/usePolling'

/** As often as the platform samples (E2B: every 5 s); no point asking more. */
const pollMs = 5000

/**
 * The sandbox's latest use against its limits while it runs and the page is visible; undefined
 * while unknown (not running, no platform, no sample yet, or the platform could not say).
 */
export function useSandboxUsage(
  session: SandboxSession,
  running: boolean,
): NonNullable<SandboxUsage> | undefined {
  const load = useCallback(async () => {
    // Its answer redraws the meters, a frame that a typed key's echo would wait behind.
    await session.activity.pauseInTyping()
    return session.usage()
  }, [session])
  return usePolling(running ? load : undefined, pollMs) ?? undefined
}
