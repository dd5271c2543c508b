import { type ComponentType, type LazyExoticComponent, lazy } from 'react'

/** A lazy component that can also be fetched ahead of its first render. */
// biome-ignore lint/suspicious/noExplicitAny: as lazyNamed's own constraint below
export type Preloadable<C extends ComponentType<any>> = LazyExoticComponent<C> & {
  /** Fetches its module now (once), so its first render does not wait for the network. */
  preload(): void
}

/**
 * A component whose module is fetched the first time it renders: `lazyNamed(() => import('./X'), 'X')`.
 * Keeps code a page may never show (a dialog, a panel, another page) out of the entry script;
 * `preload()` fetches it earlier, when the page is idle and it is likely to be wanted.
 */
// biome-ignore lint/suspicious/noExplicitAny: React's own lazy() takes any props the same way
export function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): Preloadable<M[K]> {
  let module: Promise<M> | undefined
  const once = () => {
    module ??= load()
    return module
  }
  const component = lazy(async () => ({ default: (await once())[name] }))
  return Object.assign(component, {
    preload: () => {
      once().catch(() => {
        // Fetched again (and its error shown) when it first renders.
        module = undefined
      })
    },
  })
}
