import { useEffect, useSyncExternalStore } from 'react'
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { persistedStorage } from './persistedStorage'

/** The look in effect. */
export type Theme = 'light' | 'dark'

/** What the user picks: a theme, or 'system' to follow the OS. */
export type ThemeChoice = Theme | 'system'

interface ThemeStore {
  choice: ThemeChoice
  setChoice(choice: ThemeChoice): void
}

/** The user's theme choice; 'system' follows the OS. */
export const useThemeStore = create<ThemeStore>()(
  persist((set) => ({ choice: 'system', setChoice: (choice) => set({ choice }) }), {
    name: 'sandbox-ide:theme',
    storage: persistedStorage,
  }),
)

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)')

function subscribeToOs(listener: () => void) {
  const query = darkQuery()
  query.addEventListener('change', listener)
  return () => query.removeEventListener('change', listener)
}

/** The theme in effect: the choice, or the OS's when the choice is 'system'. */
export function useEffectiveTheme(): Theme {
  const choice = useThemeStore((s) => s.choice)
  const osDark = useSyncExternalStore(subscribeToOs, () => darkQuery().matches)
  return choice === 'system' ? (osDark ? 'dark' : 'light') : choice
}

/** Puts the effective theme on <html data-theme>, where the CSS variables pick it up. */
export function useApplyTheme(): Theme {
  const theme = useEffectiveTheme()
  useEffect(() => {
    document.documentElement.dataset.theme = theme
  }, [theme])
  return theme
}
