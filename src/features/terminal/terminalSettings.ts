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
  /** Draw typed keys before the sandbox echoes them: never, on a slow link (auto), or always. */
  predictiveEcho: PredictiveEchoMode
  toggleCopyOnSelect(): void
  toggleScreenReaderMode(): void
  toggleLocalLinksOpen(): void
  setPredictiveEcho(mode: PredictiveEchoMode): void
}

export type PredictiveEchoMode = 'off' | 'auto' | 'always'

/** Above this echo round trip (VS Code's default), `auto` predicts. */
export const predictAboveMs = 30

/** The user's terminal options, the same for every terminal and kept across reloads. */
export const useTerminalSettings = create<TerminalSettings>()(
  persist(
    (set) => ({
      copyOnSelect: false,
      screenReaderMode: false,
      localLinksOpen: 'tab',
      predictiveEcho: 'auto',
      toggleCopyOnSelect: () => set((s) => ({ copyOnSelect: !s.copyOnSelect })),
      toggleScreenReaderMode: () => set((s) => ({ screenReaderMode: !s.screenReaderMode })),
      toggleLocalLinksOpen: () =>
        set((s) => ({ localLinksOpen: s.localLinksOpen === 'tab' ? 'preview' : 'tab' })),
      setPredictiveEcho: (predictiveEcho) => set({ predictiveEcho }),
    }),
    {
      name: 'sandbox-ide:terminal-settings',
      storage: persistedStorage,
      partialize: (s) => ({
        copyOnSelect: s.copyOnSelect,
        screenReaderMode: s.screenReaderMode,
        localLinksOpen: s.localLinksOpen,
        predictiveEcho: s.predictiveEcho,
      }),
    },
  ),
)

/** Where a terminal reads the options from and hears of changes to them. */
export type TerminalSettingsSource = Pick<typeof useTerminalSettings, 'getState' | 'subscribe'>
