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
  /** Lines kept above the screen. */
  scrollback: ScrollbackLines
  toggleCopyOnSelect(): void
  toggleScreenReaderMode(): void
  toggleLocalLinksOpen(): void
  setPredictiveEcho(mode: PredictiveEchoMode): void
  setScrollback(lines: ScrollbackLines): void
}

export type PredictiveEchoMode = 'off' | 'auto' | 'always'

/**
 * The scrollback a user may choose. 1,000 is VS Code's, xterm's and wetty's default, and ours: a
 * flood scrolls each line through the oldest one kept, and 10,000 lines (15 MB of cells at 126
 * columns) no longer sit in a core's cache, so a 32 MiB flood drew about a tenth slower with them
 * (20.1 against 22.4 MB/s, six floods each in one session), and each terminal holds more
 * memory. Longer ones are there for long logs.
 */
export const scrollbackChoices = [1_000, 10_000, 50_000] as const
export type ScrollbackLines = (typeof scrollbackChoices)[number]

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
      scrollback: scrollbackChoices[0],
      toggleCopyOnSelect: () => set((s) => ({ copyOnSelect: !s.copyOnSelect })),
      toggleScreenReaderMode: () => set((s) => ({ screenReaderMode: !s.screenReaderMode })),
      toggleLocalLinksOpen: () =>
        set((s) => ({ localLinksOpen: s.localLinksOpen === 'tab' ? 'preview' : 'tab' })),
      setPredictiveEcho: (predictiveEcho) => set({ predictiveEcho }),
      setScrollback: (scrollback) => set({ scrollback }),
    }),
    {
      name: 'sandbox-ide:terminal-settings',
      storage: persistedStorage,
      partialize: (s) => ({
        copyOnSelect: s.copyOnSelect,
        screenReaderMode: s.screenReaderMode,
        localLinksOpen: s.localLinksOpen,
        predictiveEcho: s.predictiveEcho,
        scrollback: s.scrollback,
      }),
    },
  ),
)

/** Where a terminal reads the options from and hears of changes to them. */
export type TerminalSettingsSource = Pick<typeof useTerminalSettings, 'getState' | 'subscribe'>
