import { type DependencyList, useEffect, useState } from 'react'

/**
 * An object that holds streams or listeners, made by `make` after render and disposed when `deps`
 * change or the component goes; undefined until then, and while `make` gives none.
 */
export function useDisposable<T extends { dispose(): void }>(
  make: () => T | undefined,
  deps: DependencyList,
): T | undefined {
  const [value, setValue] = useState<T>()
  useEffect(
    () => {
      const next = make()
      setValue(next)
      return () => {
        setValue(undefined)
        next?.dispose()
      }
    },
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps say when to make it again
    deps,
  )
  return value
}
