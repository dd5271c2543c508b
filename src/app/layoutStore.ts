import { create } from 'zustand'
import { persist } from 'zustand/middleware'

/** Which panels are shown, remembered per sandbox (sizes are remembered by the panel groups). */
export interface PanelVisibility {
  explorer: boolean
  terminal: boolean
}

interface LayoutStore {
  visibility: Record<string, PanelVisibility>
  toggle(sandboxKey: string, panel: keyof PanelVisibility): void
}

export const defaultVisibility: PanelVisibility = { explorer: true, terminal: true }

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
    { name: 'sandbox-ide:layout' },
  ),
)

/** The panel visibility for one sandbox. */
export function usePanelVisibility(sandboxKey: string): PanelVisibility {
  return useLayoutStore((s) => s.visibility[sandboxKey] ?? defaultVisibility)
}
