// Go to Symbol in Workspace: LSP's `workspace/symbol` asked of every running server that offers it,
// their answers (SymbolInformation, or LSP 3.17's WorkspaceSymbol) turned into one list, best
// first. Fetched the first time Go to Symbol opens, out of the first page's script.
import type {
  Range,
  ServerCapabilities,
  SymbolInformation,
  SymbolKind,
  WorkspaceSymbol,
} from 'vscode-languageserver-protocol'
import type { LanguageService, LanguageSnapshot } from './LanguageService'
import { pathOfUri } from './uris'

/** One symbol a server found. */
export interface SymbolHit {
  name: string
  kind: SymbolKind
  /** What it is declared in (a class, a module), as the server names it. */
  container?: string
  /** Its file, as a sandbox path. */
  path: string
  /**
   * Where its name is (LSP's lines and UTF-16 columns, from 0); absent where the server gave the
   * file only and leaves the place to `workspaceSymbol/resolve`.
   */
  range?: Range
  deprecated: boolean
  /** The server that found it, which resolves it. */
  serverKey: string
  /** The server's own item, sent back as it was to resolve it. */
  item: SymbolInformation | WorkspaceSymbol
}

/** One search's answer. */
export interface SymbolSearch {
  /** Best first, at most the limit. */
  hits: SymbolHit[]
  /** How many servers were asked: none means no running server offers workspace symbols. */
  asked: number
  /** More were found than the limit. */
  truncated: boolean
}

export interface SymbolSearchOptions {
  /** Aborting it cancels the requests (the user typed on): the answer is then of no use. */
  signal?: AbortSignal
  /** How many symbols at most (200 by default). */
  limit?: number
}

/** What Go to Symbol needs of the language servers. */
export interface SymbolSource {
  subscribe(listener: () => void): () => void
  /** The servers and their states: a search is worth asking again when one starts running. */
  getSnapshot(): LanguageSnapshot
  search(query: string, options?: SymbolSearchOptions): Promise<SymbolSearch>
  /** The symbol with its place, asked of its server where it came without one; else as it is. */
  resolve(hit: SymbolHit, signal?: AbortSignal): Promise<SymbolHit>
}

/** What a search needs of one server's client (LanguageClient has it). */
export interface SymbolClient {
  readonly key: string
  readonly capabilities: ServerCapabilities | undefined
  request<R>(method: string, params: unknown, options?: { signal?: AbortSignal }): Promise<R | undefined>
}

/** As VS Code's list, long enough to scroll and short enough to draw at once. */
export const defaultSymbolLimit = 200

const deprecatedTag = 1

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

const isPosition = (value: unknown): boolean =>
  isRecord(value) && typeof value.line === 'number' && typeof value.character === 'number'

const isRange = (value: unknown): value is Range =>
  isRecord(value) && isPosition(value.start) && isPosition(value.end)

/**
 * A server's answer to `workspace/symbol` (or one item, from `workspaceSymbol/resolve`) as hits:
 * SymbolInformation and WorkspaceSymbol alike. Items in no file of the sandbox (a server's own
 * `untitled:` URIs) or not shaped as LSP says are left out.
 */
export function symbolHits(serverKey: string, answer: unknown): SymbolHit[] {
  if (!Array.isArray(answer)) return []
  const hits: SymbolHit[] = []
  for (const item of answer) {
    if (!isRecord(item) || typeof item.name !== 'string' || typeof item.kind !== 'number') continue
    const location = item.location
    if (!isRecord(location) || typeof location.uri !== 'string') continue
    const path = pathOfUri(location.uri)
    if (path === undefined) continue
    const symbol = item as unknown as SymbolInformation | WorkspaceSymbol
    const range = isRange(location.range) ? location.range : undefined
    const container =
      typeof item.containerName === 'string' && item.containerName ? item.containerName : undefined
    hits.push({
      name: symbol.name,
      kind: symbol.kind,
      ...(container ? { container } : {}),
      path,
      ...(range ? { range } : {}),
      deprecated:
        ('deprecated' in symbol && symbol.deprecated === true) ||
        (Array.isArray(symbol.tags) && symbol.tags.includes(deprecatedTag)),
      serverKey,
      item: symbol,
    })
  }
  return hits
}

const isUpper = (c: string) => c >= 'A' && c <= 'Z'
const isLower = (c: string) => (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')

/**
 * How well a name answers the query, lower is better: the name itself (its case too, then any
 * case), its start, the start of a word in it (after `_`, `.`, `$`, `-`, or a camelCase hump),
 * anywhere in it, and last what a server matched its own way (letters in order, say).
 */
function tier(name: string, query: string, lowerQuery: string): number {
  if (!lowerQuery) return 5
  if (name === query) return 0
  const lower = name.toLowerCase()
  if (lower === lowerQuery) return 1
  if (lower.startsWith(lowerQuery)) return 2
  let at = lower.indexOf(lowerQuery, 1)
  if (at === -1) return 5
  for (; at !== -1; at = lower.indexOf(lowerQuery, at + 1)) {
    const before = name[at - 1] as string
    if ('_.$-'.includes(before) || (isUpper(name[at] as string) && isLower(before))) return 3
  }
  return 4
}

const placeOf = (hit: SymbolHit) => (hit.range ? `${hit.range.start.line}:${hit.range.start.character}` : '')

/**
 * The servers' answers as one list: a symbol two servers found listed once, ranked by how its
 * name answers the query (then shorter names, then by name, file and place), at most `limit`.
 */
export function mergeSymbolHits(
  answers: readonly (readonly SymbolHit[])[],
  query: string,
  limit = defaultSymbolLimit,
): { hits: SymbolHit[]; truncated: boolean } {
  const trimmed = query.trim()
  const lowerQuery = trimmed.toLowerCase()
  const seen = new Set<string>()
  const ranked: { hit: SymbolHit; tier: number }[] = []
  for (const hits of answers)
    for (const hit of hits) {
      const key = `${hit.path}\0${hit.name}\0${hit.kind}\0${placeOf(hit)}`
      if (seen.has(key)) continue
      seen.add(key)
      ranked.push({ hit, tier: tier(hit.name, trimmed, lowerQuery) })
    }
  ranked.sort(
    (a, b) =>
      a.tier - b.tier ||
      a.hit.name.length - b.hit.name.length ||
      compare(a.hit.name, b.hit.name) ||
      compare(a.hit.path, b.hit.path) ||
      (a.hit.range?.start.line ?? -1) - (b.hit.range?.start.line ?? -1),
  )
  return { hits: ranked.slice(0, limit).map((r) => r.hit), truncated: ranked.length > limit }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** A server offers workspace symbols (`true`, or options). */
const offersSymbols = (client: SymbolClient) => !!client.capabilities?.workspaceSymbolProvider

/**
 * Asks every running server that offers workspace symbols (a client has capabilities only while
 * its server runs) for `query`, all at once, and merges what they answer; a server that fails or
 * does not answer in time adds nothing. Nothing is asked for an empty query.
 */
export async function findWorkspaceSymbols(
  clients: Iterable<SymbolClient>,
  query: string,
  { signal, limit = defaultSymbolLimit }: SymbolSearchOptions = {},
): Promise<SymbolSearch> {
  const asking = [...clients].filter(offersSymbols)
  if (!query.trim() || asking.length === 0) return { hits: [], asked: asking.length, truncated: false }
  const answers = await Promise.all(
    asking.map(async (client) =>
      symbolHits(
        client.key,
        await client.request('workspace/symbol', { query }, signal ? { signal } : undefined),
      ),
    ),
  )
  return { ...mergeSymbolHits(answers, query, limit), asked: asking.length }
}

/**
 * A symbol's place: as it came, or (where its server gave the file only) from
 * `workspaceSymbol/resolve` where the server offers it. Without one, the symbol stays placeless
 * and opens at its file's start.
 */
export async function resolveSymbol(
  client: SymbolClient | undefined,
  hit: SymbolHit,
  signal?: AbortSignal,
): Promise<SymbolHit> {
  if (hit.range || !client) return hit
  const provider = client.capabilities?.workspaceSymbolProvider
  if (typeof provider !== 'object' || !provider.resolveProvider) return hit
  const answer = await client.request('workspaceSymbol/resolve', hit.item, signal ? { signal } : undefined)
  const [resolved] = symbolHits(hit.serverKey, [answer])
  return resolved?.range ? { ...hit, path: resolved.path, range: resolved.range, item: resolved.item } : hit
}

/** Go to Symbol's source: the workspace's language servers. */
export class WorkspaceSymbols implements SymbolSource {
  constructor(private readonly service: LanguageService) {}

  subscribe = (listener: () => void) => this.service.subscribe(listener)

  getSnapshot = () => this.service.getSnapshot()

  search(query: string, options?: SymbolSearchOptions): Promise<SymbolSearch> {
    return findWorkspaceSymbols(this.service.clients.values(), query, options)
  }

  resolve(hit: SymbolHit, signal?: AbortSignal): Promise<SymbolHit> {
    return resolveSymbol(this.service.clients.get(hit.serverKey), hit, signal)
  }
}
