import { localLanguageServersBin } from '../../contract/languageServers'
import type { LanguageOverrides, LanguageServerConfig, LanguageTable } from '../../contract/languageTable'

// What the page does with the table (its shape, defaults and reader are in the contract): how a
// server is launched, the overrides laid over the defaults, and which server serves a language.

/**
 * The command line that starts `config` in a sandbox: the sandbox's own PATH first (a template or
 * a user may install servers of their own), then the local stack's shared folder of servers.
 */
export function launchCommand(config: LanguageServerConfig): string {
  return `PATH="$PATH:${localLanguageServersBin}"; exec ${config.command}`
}

/** The table with `overrides` applied in order (the workspace's, then a lab's): later ones win. */
export function applyOverrides(table: LanguageTable, ...overrides: LanguageOverrides[]): LanguageTable {
  const result: LanguageTable = { ...table }
  for (const { enabled, servers } of overrides) {
    if (!enabled) return {}
    for (const [key, server] of Object.entries(servers)) {
      if (server === false) delete result[key]
      else result[key] = { ...(result[key] ?? { name: key, languages: [], command: '' }), ...server }
    }
  }
  return result
}

/** The server of `table` that serves `language`, if any: its key and configuration. */
export function serverFor(
  table: LanguageTable,
  language: string,
): [string, LanguageServerConfig] | undefined {
  return Object.entries(table).find(([, config]) => config.languages.includes(language))
}
