import { type ComponentType, type LazyExoticComponent, lazy } from 'react'

/**
 * A component whose module is fetched the first time it renders: `lazyNamed(() => import('./X'), 'X')`.
 * Keeps code a page may never show (a dialog, a panel, another page) out of the entry script.
 */
// biome-ignore lint/suspicious/noExplicitAny: React's own lazy() takes any props the same way
export function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }))
}
