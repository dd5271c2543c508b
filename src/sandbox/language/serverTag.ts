// The tags of the processes code intelligence starts in a sandbox, made and read here only: a
// later page of the same tab finds its leftovers by them, and the processes panel names them.

const serverPrefix = 'ide-lsp:'
const installPrefix = 'ide-lsp-install:'

/** A process of code intelligence, as its tag says. */
export type LanguageProcess =
  /** A language server: its key in the table, the browser tab it serves, its display name. */
  | { kind: 'server'; key: string; tabId: string; name: string }
  /** The install command of a missing server. */
  | { kind: 'install'; key: string; name: string }

// Each part is URI-encoded, so a key or a name with a `:` in it cannot shift the others.
const join = (prefix: string, parts: string[]) => prefix + parts.map(encodeURIComponent).join(':')

/** The tag of a language server's process: `ide-lsp:<key>:<tab>:<name>`. */
export function languageServerTag(key: string, tabId: string, name: string): string {
  return join(serverPrefix, [key, tabId, name])
}

/** The tag of a server's install command: `ide-lsp-install:<key>:<name>`. */
export function languageInstallTag(key: string, name: string): string {
  return join(installPrefix, [key, name])
}

/** What a tag made above says, or undefined for any other tag. */
export function parseLanguageTag(tag: string | undefined): LanguageProcess | undefined {
  const parts = (prefix: string, count: number) => {
    if (!tag?.startsWith(prefix)) return undefined
    const split = tag.slice(prefix.length).split(':')
    if (split.length !== count || split.some((part) => part === '')) return undefined
    try {
      return split.map(decodeURIComponent)
    } catch {
      return undefined
    }
  }
  const server = parts(serverPrefix, 3)
  if (server) {
    const [key = '', tabId = '', name = ''] = server
    return { kind: 'server', key, tabId, name }
  }
  const install = parts(installPrefix, 2)
  if (install) {
    const [key = '', name = ''] = install
    return { kind: 'install', key, name }
  }
  return undefined
}
