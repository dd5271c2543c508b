import type { ListeningPort } from './sandboxPorts'

/** Ports that opened and closed since the last look. */
export interface PortChanges {
  opened: number[]
  closed: number[]
}

/**
 * Looks at the sandbox's listening ports every `everyMs` and tells `listener` which opened and
 * which closed (the first look reports every port open as opened). A failed look changes nothing.
 * Returns a function that stops.
 */
export function watchPorts(
  list: () => Promise<ListeningPort[]>,
  everyMs: number,
  listener: (changes: PortChanges) => void,
): () => void {
  let known = new Set<number>()
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const look = async () => {
    try {
      const now = new Set((await list()).map((p) => p.port))
      if (stopped) return
      const opened = [...now].filter((p) => !known.has(p))
      const closed = [...known].filter((p) => !now.has(p))
      known = now
      if (opened.length > 0 || closed.length > 0) listener({ opened, closed })
    } catch {}
    if (!stopped) timer = setTimeout(look, everyMs)
  }
  void look()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
