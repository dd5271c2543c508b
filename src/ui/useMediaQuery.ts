import { useSyncExternalStore } from 'react'

/** Whether the media query matches now, following its changes (a phone turned, a mouse plugged in). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    () => matchMedia(query).matches,
  )
}

/** A touch screen is the main pointer (phones, tablets): no physical keyboard to count on. */
export const touchFirst = '(pointer: coarse)'
/** Too narrow for panels side by side (a phone held upright): they are stacked instead. */
export const narrowScreen = '(max-width: 640px)'
