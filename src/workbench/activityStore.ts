import { create } from 'zustand'
import { FocusRequest } from '../ui/FocusRequest'

interface ActivityStore {
  /** The sidebar's view per sandbox (by layout key), as the activity bar chose it. */
  active: Record<string, string>
  setActive(sandboxKey: string, viewId: string): void
}

/**
 * Which view the sidebar shows, per sandbox, for the page's life: a reload opens the Explorer, as
 * everything else of the page starts afresh then (a search's results are not kept).
 */
export const useActivityStore = create<ActivityStore>()((set) => ({
  active: {},
  setActive: (key, viewId) => set((s) => ({ active: { ...s.active, [key]: viewId } })),
}))

/** The view the sidebar of one sandbox shows: the Explorer until another is chosen, as VS Code opens. */
export function useActiveView(sandboxKey: string): string {
  return useActivityStore((s) => s.active[sandboxKey] ?? 'explorer')
}

const requests = new Map<string, FocusRequest>()

/**
 * Asks a sidebar view to take the keyboard (its shortcut was pressed), one request per view id: the
 * view takes it when it renders, also when its code arrives later.
 */
export function sideViewFocus(viewId: string): FocusRequest {
  let request = requests.get(viewId)
  if (!request) {
    request = new FocusRequest()
    requests.set(viewId, request)
  }
  return request
}
