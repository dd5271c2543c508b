import type { ITheme } from '@xterm/xterm'
import type { Theme } from '../../ui/themeStore'

/** Terminal colours for the IDE's light and dark themes. */
export const terminalThemes: Record<Theme, ITheme> = {
  light: {
    background: '#ffffff',
    foreground: '#1f2328',
    cursor: '#1f2328',
    selectionBackground: '#b6d6fb',
  },
  dark: {
    background: '#0d1117',
    foreground: '#e6edf3',
    cursor: '#e6edf3',
    selectionBackground: '#264f78',
  },
}
