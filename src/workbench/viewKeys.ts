/** A key combination of the workbench (`ctrl` is Cmd on macOS), as `useGlobalShortcuts` takes it. */
export interface KeyCombination {
  key: string
  ctrl?: boolean
  shift?: boolean
  alt?: boolean
  /** Only while this holds (a key a focused terminal keeps for itself). */
  when?(): boolean
}

/** The keyboard is in a terminal (its screen, or its own find box). */
const focusInTerminal = () => !!document.activeElement?.closest('.terminal')
const notInTerminal = () => !focusInTerminal()

/** A key of the sidebar's views and their actions, and the action's name (a view's id, or another). */
export type ViewKey = KeyCombination & { action: string }

/**
 * The keys of the sidebar's views (Ctrl+Shift+<key> shows one) and of their actions. The table
 * carries no code of the views, so it is in the first page's script: a key pressed before the
 * views' code arrives is kept and done when it does, never lost. A terminal that has the
 * keyboard keeps Ctrl+Shift+F (its own find), Ctrl+P and Ctrl+T (the shell's), as the project's
 * rule for shortcuts says.
 */
export const viewKeys: readonly ViewKey[] = [
  { key: 'e', ctrl: true, shift: true, action: 'explorer' },
  { key: 'f', ctrl: true, shift: true, when: notInTerminal, action: 'search' },
  { key: 'g', ctrl: true, shift: true, action: 'scm' },
  { key: 'h', ctrl: true, shift: true, action: 'replace' },
  { key: 'p', ctrl: true, when: notInTerminal, action: 'goToFile' },
  { key: 't', ctrl: true, when: notInTerminal, action: 'goToSymbol' },
]

/** The letter of Ctrl+Shift+<letter> that shows a view, if it has one. */
export const viewKeyOf = (view: string) => viewKeys.find((k) => k.action === view && k.shift)?.key
