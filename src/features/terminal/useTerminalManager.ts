import { useEffect, useState } from 'react'
import type { SandboxSession } from '../../sandbox/SandboxSession'
import { addressKey } from '../../sandbox/sandboxAddress'
import { TerminalManager } from './TerminalManager'

/** The terminals of a session, alive as long as the workbench (not the panel) is. */
export function useTerminalManager(
  session: SandboxSession,
  theme: 'light' | 'dark',
): TerminalManager | undefined {
  const [manager, setManager] = useState<TerminalManager>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: the theme is applied by the effect below
  useEffect(() => {
    const next = new TerminalManager(session, `sandbox-ide:terminals:${addressKey(session.address)}`, theme)
    setManager(next)
    return () => next.dispose()
  }, [session])
  useEffect(() => manager?.setTheme(theme), [manager, theme])
  return manager
}
