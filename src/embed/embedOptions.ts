import type { PanelName, ThemeName } from '@sandbox-ide/embed/protocol'

/** What an /embed URL configures. None of it is secret: the sandbox comes in the handshake. */
export interface EmbedOptions {
  panels: PanelName[]
  /** A file to open once connected. */
  open?: string
  /** A command to run once connected, after the user agrees (unless the parent is trusted). */
  run?: string
  theme?: ThemeName
  /** No editing and no file actions; terminals stay usable unless the terminal panel is hidden. */
  readOnly: boolean
  /** A port (and path) to preview: shown once something listens there. */
  preview?: { port: number; path: string }
  /** The sandbox's language servers behind the editor: on where the editor shows, unless `intelligence=0`. */
  codeIntelligence: boolean
}

const allPanels: PanelName[] = ['files', 'editor', 'terminal', 'preview']
/** What `panels=` means when absent: the preview shows only when asked for. */
const defaultPanels: PanelName[] = ['files', 'editor', 'terminal']
const themes: ThemeName[] = ['light', 'dark', 'system']

/**
 * Reads `?panels=files,editor,terminal,preview&open=path&run=command&theme=dark&readonly=1&
 * preview=8000/docs&intelligence=0`. Unknown panels or themes are errors, so a typo in a docs page shows up
 * instead of being ignored.
 */
export function parseEmbedOptions(search: string): EmbedOptions | { error: string } {
  const query = new URLSearchParams(search)
  const panelList = query.get('panels')
  const panels = panelList === null ? defaultPanels : panelList.split(',').filter(Boolean)
  const unknownPanel = panels.find((p) => !allPanels.includes(p as PanelName))
  if (unknownPanel !== undefined)
    return { error: `unknown panel '${unknownPanel}' in panels= (use ${allPanels.join(', ')})` }
  if (panels.length === 0) return { error: 'panels= names no panel' }
  const theme = query.get('theme')
  if (theme !== null && !themes.includes(theme as ThemeName))
    return { error: `unknown theme '${theme}' (use ${themes.join(', ')})` }
  const readOnly = query.get('readonly')
  if (readOnly !== null && !['', '1', 'true', '0', 'false'].includes(readOnly))
    return { error: `readonly= takes 1 or 0, not '${readOnly}'` }
  const intelligence = query.get('intelligence')
  if (intelligence !== null && !['1', 'true', '0', 'false'].includes(intelligence))
    return { error: `intelligence= takes 1 or 0, not '${intelligence}'` }
  const open = query.get('open')
  const run = query.get('run')
  const previewArg = query.get('preview')
  const preview = previewArg === null ? undefined : /^(\d{1,5})(\/.*)?$/.exec(previewArg)
  if (previewArg !== null && (!preview || Number(preview[1]) < 1 || Number(preview[1]) > 65535))
    return { error: `preview= takes a port and a path (8000 or 8000/docs), not '${previewArg}'` }
  // Asking for a preview shows its panel.
  if (preview && !panels.includes('preview')) panels.push('preview')
  return {
    panels: allPanels.filter((p) => panels.includes(p)),
    ...(preview ? { preview: { port: Number(preview[1]), path: preview[2] ?? '/' } } : {}),
    ...(open ? { open } : {}),
    ...(run ? { run } : {}),
    ...(theme ? { theme: theme as ThemeName } : {}),
    readOnly: readOnly === '' || readOnly === '1' || readOnly === 'true',
    // Off for a terminal-only embed unless asked for: it has no editor to underline in.
    codeIntelligence:
      intelligence === null ? panels.includes('editor') : intelligence === '1' || intelligence === 'true',
  }
}
