import { useSyncExternalStore } from 'react'

/** Something React can subscribe to: the session model and other plain-TypeScript stores. */
export interface ExternalStore<T> {
  subscribe(listener: () => void): () => void
  getSnapshot(): T
}

/** Re-renders on every change of the store's snapshot. */
export function useExternalStore<T>(store: ExternalStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.getSnapshot)
}
