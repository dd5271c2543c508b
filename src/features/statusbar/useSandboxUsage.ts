import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { SandboxUsage } from '../../contract/ideApiTypes'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { addressKey } from '../../sandbox/sandboxAddress'

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
  const queryClient = useQueryClient()
  const sandbox = addressKey(session.address)
  const usage = useQuery({
    queryKey: ['usage', sandbox],
    enabled: running,
    refetchInterval: running ? pollMs : false,
    refetchIntervalInBackground: false,
    // The next sample is 5 s away anyway; until then the meters are better gone than stale.
    retry: false,
    queryFn: async () => {
      // Its answer redraws the meters, a frame that a typed key's echo would wait behind.
      await session.activity.pauseInTyping()
      return session.usage()
    },
  })
  useEffect(() => {
    // A sample from before a pause says nothing of the sandbox resumed: the meters wait for a new one.
    if (!running) queryClient.removeQueries({ queryKey: ['usage', sandbox] })
  }, [running, queryClient, sandbox])
  if (!running || usage.isError) return undefined
  return usage.data ?? undefined
}
