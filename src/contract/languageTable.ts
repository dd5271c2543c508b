// The table of language servers as the IDE knows it and as a workspace file or a lab's manifest
// changes it: its shape, its defaults and the one reader of its overrides. In the contract, with
// no code of the page's, because the lab's manifest (read here too) carries the same overrides.

/** One language server: which editor languages it serves and how it starts in the sandbox. */
export interface LanguageServerConfig {
  /** What the status bar and messages call it. */
  name: string
  /** The editor's language ids whose files it serves (`python`, `typescript`, `c`…). */
  languages: string[]
  /** A shell command that speaks LSP on stdin and stdout, run by `bash -l -c` in the home folder. */
  command: string
  /** A shell command that installs it, offered where it is missing ("Install language support"). */
  install?: string
  /** LSP's `initializationOptions`. */
  initializationOptions?: unknown
  /** What it is told for `workspace/configuration`, by section (`python.analysis`…). */
  settings?: Record<string, unknown>
}

/** The table: servers by key. A workspace file or a lab may add, change or turn off (`false`) each. */
export type LanguageTable = Record<string, LanguageServerConfig>

/**
 * The servers the IDE knows without being told. Pyright for Python (what Pylance is built on:
 * type-aware diagnostics, one npm package, no Python of its own); TypeScript 7's own compiler for
 * TypeScript and JavaScript (its `--lsp` mode is the language server: native code, no tsserver).
 * The local stack installs both where every sandbox sees them (src/contract/languageServers.ts).
 */
export const defaultLanguageTable: LanguageTable = {
  python: {
    name: 'Pyright',
    languages: ['python'],
    command: 'pyright-langserver --stdio',
    install: 'npm install --global pyright',
  },
  typescript: {
    name: 'TypeScript',
    languages: ['typescript', 'javascript'],
    command: 'tsc --lsp --stdio',
    install: 'npm install --global typescript@7',
  },
}

/** The file a workspace (or a lab's template) keeps its overrides in, relative to the home folder. */
export const workspaceLanguagesFile = '.sandbox-ide/languages.json'

/** Overrides as a file or a lab's manifest gives them: a table, or `false` to turn all off. */
export interface LanguageOverrides {
  /** False turns code intelligence off in this workspace. */
  enabled: boolean
  servers: Record<string, Partial<LanguageServerConfig> | false>
}

/** What a languages file says, or each problem with it (where, and what is wrong). */
export type ParsedOverrides = { ok: true; overrides: LanguageOverrides } | { ok: false; problems: string[] }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const serverKeys = new Set(['name', 'languages', 'command', 'install', 'initializationOptions', 'settings'])

/**
 * Reads `{ "enabled"?: boolean, "servers"?: { key: config | false } }`: each server's fields are
 * checked (unknown keys, wrong types), a new server needs `languages` and `command`. `where`
 * starts each problem: the file, or the manifest's field.
 */
export function parseLanguageOverrides(value: unknown, where = workspaceLanguagesFile): ParsedOverrides {
  const problems: string[] = []
  if (!isObject(value)) return { ok: false, problems: [`${where}: must be an object`] }
  for (const key of Object.keys(value))
    if (key !== 'enabled' && key !== 'servers') problems.push(`${where}: unknown key "${key}"`)
  if (value.enabled !== undefined && typeof value.enabled !== 'boolean')
    problems.push(`${where}: "enabled" must be true or false`)
  const servers: LanguageOverrides['servers'] = {}
  if (value.servers !== undefined && !isObject(value.servers))
    problems.push(`${where}: "servers" must be an object`)
  for (const [key, server] of Object.entries(isObject(value.servers) ? value.servers : {})) {
    const at = `${where}: servers.${key}`
    if (server === false) {
      servers[key] = false
      continue
    }
    if (!isObject(server)) {
      problems.push(`${at}: must be an object, or false to turn it off`)
      continue
    }
    for (const field of Object.keys(server))
      if (!serverKeys.has(field)) problems.push(`${at}: unknown key "${field}"`)
    for (const field of ['name', 'command', 'install'] as const)
      if (server[field] !== undefined && (typeof server[field] !== 'string' || server[field] === ''))
        problems.push(`${at}.${field}: must be a non-empty string`)
    const languages = server.languages
    if (
      languages !== undefined &&
      !(
        Array.isArray(languages) &&
        languages.length > 0 &&
        languages.every((l) => typeof l === 'string' && l)
      )
    )
      problems.push(`${at}.languages: must be a list of language ids`)
    if (server.settings !== undefined && !isObject(server.settings))
      problems.push(`${at}.settings: must be an object`)
    if (!(key in defaultLanguageTable) && (server.command === undefined || server.languages === undefined))
      problems.push(`${at}: a new server needs "languages" and "command"`)
    servers[key] = server as Partial<LanguageServerConfig>
  }
  if (problems.length) return { ok: false, problems }
  return { ok: true, overrides: { enabled: value.enabled !== false, servers } }
}
