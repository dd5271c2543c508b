import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { persistedStorage } from '../../ui/persistedStorage'

interface TerminalSettings {
  /** Copy a mouse selection to the clipboard as soon as it is made (PuTTY style). */
  copyOnSelect: boolean
  /** Mirror the screen into an accessibility tree and announce output (xterm's screen-reader mode). */
  screenReaderMode: boolean
  /** Where a printed link to one of the sandbox's own ports (localhost:8000) opens. */
  localLinksOpen: 'tab' | 'preview'
  toggleCopyOnSelect(): void
  toggleScreenReaderMode(): void
  toggleLocalLinksOpen(): void
}

/** The user's terminal options, the same for every terminal and kept across reloads. */
export const useTerminalSettings = create<TerminalSettings>()(
  persist(
    (set) => ({
      copyOnSelect: false,
      screenReaderMode: false,
      localLinksOpen: 'tab',
      toggleCopyOnSelect: () => set((s) => ({ copyOnSelect: !s.copyOnSelect })),
      toggleScreenReaderMode: () => set((s) => ({ screenReaderMode: !s.screenReaderMode })),
      toggleLocalLinksOpen: () =>
        set((s) => ({ localLinksOpen: s.localLinksOpen === 'tab' ? 'preview' : 'tab' })),
    }),
    {
      name: 'sandbox-ide:terminal-settings',
      storage: persistedStorage,
      partialize: (s) => ({
        copyOnSelect: s.copyOnSelect,
        screenReaderMode: s.screenReaderMode,
        localLinksOpen: s.localLinksOpen,
      }),
    },
  ),
)

/** Where a terminal reads the options from and hears of changes to them. */
export type TerminalSettingsSource = Pick<typeof useTerminalSettings, 'getState' | 'subscribe'>
