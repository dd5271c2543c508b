import { useQuery } from '@tanstack/react-query'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { useExternalStore } from '../../ui/useExternalStore'

/** How often the list is fetched again while the sandbox runs: List has no change stream. */
const refetchMs = 3000

/**
 * The processes the sandbox's runtime started and that still run, by pid, with which of them a
 * terminal shows; polled while running.
 */
export function useProcessList(session: SandboxSession) {
  const snap = useExternalStore(session)
  const running = snap.state.kind === 'running'
  return useQuery({
    queryKey: ['processes', snap.sandboxId ?? snap.runtimeUrl],
    enabled: running,
    refetchInterval: running ? refetchMs : false,
    queryFn: async () => {
      await session.activity.pauseInTyping()
      const { processes, attached } = await session.processes.listing()
      return { processes: [...processes].sort((a, b) => a.pid - b.pid), attached }
    },
  })
}
