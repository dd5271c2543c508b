import { useState } from 'react'

/**
 * True from the first time `open` is true on: a lazily loaded dialog is mounted then and stays
 * mounted, so closing it keeps its state and focus handling.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open)
  // Derived state, set while rendering as React documents: no extra commit with it still false.
  if (open && !opened) setOpened(true)
  return opened || open
}
