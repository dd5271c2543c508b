import { create } from 'zustand'

/** A message for the user: an error with the server's own words, or news. */
export interface Notice {
  id: number
  kind: 'error' | 'info'
  text: string
}

interface NoticeStore {
  notices: Notice[]
  push(kind: Notice['kind'], text: string): void
  dismiss(id: number): void
}

let nextId = 1

export const useNotices = create<NoticeStore>((set) => ({
  notices: [],
  push: (kind, text) => set((s) => ({ notices: [...s.notices.slice(-4), { id: nextId++, kind, text }] })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}))

/** Where a model object shows a message to the user: passed in, so tests can read what it said. */
export interface NoticeSink {
  push(kind: Notice['kind'], text: string): void
}

/** The page's notifications (the Notifications component shows them). */
export const pageNotices: NoticeSink = { push: (kind, text) => useNotices.getState().push(kind, text) }

/** Runs an action and shows its error, with the server's message, instead of swallowing it. */
export async function reportErrors(
  what: string,
  action: () => Promise<unknown>,
  notices: NoticeSink = pageNotices,
): Promise<void> {
  try {
    await action()
  } catch (err) {
    notices.push('error', `${what}: ${err instanceof Error ? err.message : String(err)}`)
  }
}
