import { useEffect, useState } from 'react'
import { FileWatch } from '../sandbox/fileWatch'
import type { SandboxSession } from '../sandbox/SandboxSession'

/** The session's one recursive watch of the home folder, shared by the explorer and the editor. */
export function useFileWatch(session: SandboxSession): FileWatch | undefined {
  const [watch, setWatch] = useState<FileWatch>()
  useEffect(() => {
    const next = new FileWatch(session)
    setWatch(next)
    return () => next.dispose()
  }, [session])
  return watch
}
