import { type ComponentProps, type ComponentType, lazy, useState } from 'react'
import { retryImport } from '../common/retryImport'
import { PartBoundary, PartLoadError } from './PartBoundary'

/** A lazy component that can also be fetched ahead of its first render. */
// biome-ignore lint/suspicious/noExplicitAny: as lazyNamed's own constraint below
export type Preloadable<C extends ComponentType<any>> = ComponentType<ComponentProps<C>> & {
  /** Fetches its module now (once), so its first render does not wait for the network. */
  preload(): void
}

/** "SourceControlView" → "Source control view": how a failed part names itself to the user. */
export function partLabel(componentName: string): string {
  const words = componentName.split(/(?<=[a-z])(?=[A-Z])/)
  return words.map((word, index) => (index === 0 ? word : word.toLowerCase())).join(' ')
}

/**
 * A component whose module is fetched the first time it renders: `lazyNamed(() => import('./X'), 'X')`.
 * Keeps code a page may never show (a dialog, a panel, another page) out of the entry script;
 * `preload()` fetches it earlier, when the page is idle and it is likely to be wanted.
 * A fetch that fails (the stack away at that moment) shows in place of the part with Try again,
 * never as a blank page; the caller still provides the Suspense fallback.
 */
// biome-ignore lint/suspicious/noExplicitAny: React's own lazy() takes any props the same way
export function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): Preloadable<M[K]> {
  const label = partLabel(String(name))
  let module: Promise<M> | undefined
  const once = () => {
    // A moment's outage (the stack restarting) is ridden out before the part shows it failed.
    module ??= retryImport(load, { attempts: 3 }).catch((cause: unknown) => {
      module = undefined
      throw new PartLoadError(label, cause)
    })
    return module
  }
  // React.lazy keeps a rejection for good, so Try again needs a new one.
  const makeLazy = () => lazy(async () => ({ default: (await once())[name] }))
  let Inner = makeLazy()
  // biome-ignore lint/correctness/noComponentHookFactories: a factory called once per part, at module level, as React's own lazy()
  function Part(props: ComponentProps<M[K]>) {
    const [, setAttempt] = useState(0)
    const retry = () => {
      Inner = makeLazy()
      setAttempt((attempt) => attempt + 1)
    }
    return (
      <PartBoundary label={label} onRetry={retry}>
        <Inner {...props} />
      </PartBoundary>
    )
  }
  Part.displayName = `Lazy(${String(name)})`
  return Object.assign(Part, {
    preload: () => {
      // A failure is shown when the part first renders.
      once().catch(() => undefined)
    },
  })
}
