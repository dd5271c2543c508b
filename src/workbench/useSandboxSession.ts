import { useEffect, useState } from 'react'
import { SandboxSession } from '../sandbox/SandboxSession'
import { addressKey, type SandboxAddress } from '../sandbox/sandboxAddress'

/**
 * The session for an address: made, started and disposed by an effect, so each mount (and each
 * new address) has exactly one live session. Undefined on the very first render.
 */
export function useSandboxSession(address: SandboxAddress): SandboxSession | undefined {
  const key = addressKey(address)
  const [session, setSession] = useState<SandboxSession>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key identifies the address
  useEffect(() => {
    const next = new SandboxSession(address)
    setSession(next)
    next.start()
    return () => next.dispose()
  }, [key])
  return session
}
