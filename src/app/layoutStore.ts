import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { persistedStorage } from '../ui/persistedStorage'
import type { PanelVisibility } from '../workbench/WorkbenchLayout'

/** The panels a user may hide, remembered per sandbox (sizes are remembered by the panel groups). */
type HideablePanels = Pick<PanelVisibility, 'explorer' | 'terminal'>

interface LayoutStore {
  visibility: Record<string, HideablePanels>
  toggle(sandboxKey: string, panel: keyof HideablePanels): void
}

export const defaultVisibility: HideablePanels = { explorer: true, terminal: true }

export const useLayoutStore = create<LayoutStore>()(
  persist(
    (set) => ({
      visibility: {},
      toggle: (key, panel) =>
        set((s) => {
          const current = s.visibility[key] ?? defaultVisibility
          return { visibility: { ...s.visibility, [key]: { ...current, [panel]: !current[panel] } } }
        }),
    }),
    { name: 'sandbox-ide:layout', storage: persistedStorage },
  ),
)

/** The panel visibility for one sandbox. */
export function usePanelVisibility(sandboxKey: string): HideablePanels {
  return useLayoutStore((s) => s.visibility[sandboxKey] ?? defaultVisibility)
}
