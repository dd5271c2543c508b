import { useEffect, useState } from 'react'

/**
 * Calls `load` now and then every `everyMs` while the page is visible, and gives its latest
 * answer; undefined before the first, after a failure, or while `load` is undefined (nothing to
 * ask). `load` should be memoized: a new one starts over.
 */
export function usePolling<T>(load: (() => Promise<T>) | undefined, everyMs: number): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined)
  useEffect(() => {
    setValue(undefined)
    if (!load) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      if (document.visibilityState === 'visible') {
        try {
          const next = await load()
          if (!stopped) setValue(() => next)
        } catch {
          if (!stopped) setValue(undefined)
        }
      }
      if (!stopped) timer = setTimeout(poll, everyMs)
    }
    void poll()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [load, everyMs])
  return value
}
