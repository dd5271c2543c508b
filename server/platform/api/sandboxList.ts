import { PlatformError } from '../platformError'
import type { SandboxRecord } from '../sandboxRecord'
import { isTemplateId } from '../templates/templateCatalog'

/** Most rows one page of GET /v2/sandboxes holds (E2B's default and maximum). */
export const maxPageSize = 100

type Order = 'asc' | 'desc'

/** One page of E2B's sandbox list, with what its headers say. */
export interface SandboxListPage {
  rows: SandboxRecord[]
  /** `X-Next-Token`: there are more rows after this page. */
  nextToken?: string
  /** `X-Total-Running`: running sandboxes that match the filters, before paging; only when asked for. */
  totalRunning?: number
}

/** Where a page starts: after the row with this start time and id, in the list's order. */
interface Cursor {
  time: number
  id: string
}

/**
 * E2B's order: by start time, newest first, ties by id ascending; `asc` is the exact reverse
 * (oldest first, ties by id descending), so a cursor walks both the same way.
 */
function compare(order: Order) {
  return (a: SandboxRecord, b: SandboxRecord): number => {
    const byTime = Date.parse(a.startedAt) - Date.parse(b.startedAt)
    const byId = a.sandboxID < b.sandboxID ? -1 : a.sandboxID > b.sandboxID ? 1 : 0
    return order === 'asc' ? byTime || -byId : -byTime || byId
  }
}

/** Records newest first, as E2B's v1 list (GET /sandboxes) gives them. */
export function newestFirst(records: SandboxRecord[]): SandboxRecord[] {
  return [...records].sort(compare('desc'))
}

/** Whether a row comes after the cursor in the list's order. */
function afterCursor(record: SandboxRecord, cursor: Cursor, order: Order): boolean {
  const time = Date.parse(record.startedAt)
  if (order === 'asc') return time > cursor.time || (time === cursor.time && record.sandboxID < cursor.id)
  return time < cursor.time || (time === cursor.time && record.sandboxID > cursor.id)
}

/** Go's RFC3339Nano for a UTC time: the fraction without its trailing zeros (none when whole). */
function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z')
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

/** An RFC 3339 time in milliseconds (a finer fraction is cut, onto the grid start times are kept on). */
function parseTime(value: string): number | undefined {
  if (!rfc3339.test(value)) return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}

/**
 * The opaque `nextToken`, as E2B makes it: base64 (URL alphabet, padded) of the last row's start
 * time and id, `<RFC3339Nano>__<id>`, with `__asc` added for the ascending order. A token made
 * for the other order is refused, since it would serve rows already seen.
 */
function makeToken(record: SandboxRecord, order: Order): string {
  const cursor = `${rfc3339Nano(Date.parse(record.startedAt))}__${record.sandboxID}`
  return Buffer.from(order === 'asc' ? `${cursor}__asc` : cursor)
    .toString('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
}

function parseToken(token: string, order: Order): Cursor {
  const invalid = new PlatformError(400, 'Invalid next token')
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(token) || token.length % 4 !== 0) throw invalid
  const parts = Buffer.from(token, 'base64url').toString().split('__')
  if (parts.length < 2 || parts.length > 3 || (parts.length === 3 && parts[2] !== 'asc')) throw invalid
  if ((parts.length === 3 ? 'asc' : 'desc') !== order) throw invalid
  const time = parseTime(parts[0] ?? '')
  if (time === undefined) throw invalid
  return { time, id: parts[1] ?? '' }
}

/** Go's url.QueryUnescape: `+` is a space; a bad escape is an error. */
function queryUnescape(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    throw new PlatformError(400, 'Error parsing metadata')
  }
}

/**
 * The `metadata` filter as E2B reads it: the whole value unescaped, then split into `key=value`
 * pairs on `&`, each key and value unescaped again (the SDKs encode each twice, so a value may hold
 * `=` or `&`). A pair without exactly one `=` is a 400.
 */
function parseMetadata(raw: string): [string, string][] {
  return queryUnescape(raw)
    .split('&')
    .map((pair) => {
      const parts = pair.split('=')
      if (parts.length !== 2) throw new PlatformError(400, 'Error parsing metadata')
      return [queryUnescape(parts[0] ?? ''), queryUnescape(parts[1] ?? '')]
    })
}

/** The `state` filter (`running,paused` or repeated), both when absent. */
function parseStates(url: URL): Set<string> {
  const states = url.searchParams.getAll('state').flatMap((s) => s.split(','))
  for (const state of states) {
    if (state !== 'running' && state !== 'paused') throw new PlatformError(400, `unknown state '${state}'`)
  }
  return new Set(states.length > 0 ? states : ['running', 'paused'])
}

/**
 * The `template` filter: a template's id, or `namespace/id` (a local platform has no namespaces,
 * so only the id counts). Sandboxes keep no tag of their template, so E2B refuses one here.
 */
function parseTemplate(raw: string): string {
  const value = raw.trim().toLowerCase()
  if (value.includes(':')) {
    throw new PlatformError(
      400,
      'Invalid template: tags are not supported here because sandboxes are not tag-scoped',
    )
  }
  const id = value.slice(value.indexOf('/') + 1)
  if (!isTemplateId(id)) {
    throw new PlatformError(
      400,
      `Invalid template: ${JSON.stringify(raw.slice(0, 80))} is not a template id (lowercase letters, digits, '-' and '_')`,
    )
  }
  return id
}

/** The `metadata` filter alone, for the v1 list (GET /sandboxes). */
export function metadataFilter(url: URL): (record: SandboxRecord) => boolean {
  const raw = url.searchParams.get('metadata')
  const pairs = raw === null ? [] : parseMetadata(raw)
  return (record) => pairs.every(([key, value]) => record.metadata[key] === value)
}

/**
 * GET /v2/sandboxes as E2B answers it: filtered by `state`, `metadata`, `startedAfter` (inclusive)
 * and `template`; ordered by start time (`order`, newest first by default); paged by a keyset
 * cursor (`nextToken`), so a sandbox created or removed between two pages neither repeats a row
 * nor skips one; `limit` rows a page, 1 to 100.
 */
export function listSandboxes(url: URL, records: SandboxRecord[]): SandboxListPage {
  const query = url.searchParams
  const states = parseStates(url)
  const orderParam = query.get('order') ?? 'desc'
  if (orderParam !== 'asc' && orderParam !== 'desc') {
    throw new PlatformError(400, `Invalid order parameter: unknown order "${orderParam.slice(0, 40)}"`)
  }
  const order: Order = orderParam
  const limit = Number(query.get('limit') ?? maxPageSize)
  if (!Number.isInteger(limit) || limit < 1 || limit > maxPageSize) {
    throw new PlatformError(400, `limit must be a whole number from 1 to ${maxPageSize}`)
  }
  const token = query.get('nextToken')
  const cursor = token ? parseToken(token, order) : undefined
  const startedAfterRaw = query.get('startedAfter')
  const startedAfter = startedAfterRaw === null ? undefined : parseTime(startedAfterRaw)
  if (startedAfterRaw !== null && startedAfter === undefined) {
    throw new PlatformError(
      400,
      `invalid startedAfter: '${startedAfterRaw.slice(0, 40)}' is not an RFC 3339 time`,
    )
  }
  const templateRaw = query.get('template')
  const template = templateRaw ? parseTemplate(templateRaw) : undefined
  const hasMetadata = metadataFilter(url)

  const matching = records.filter(
    (r) =>
      states.has(r.state) &&
      hasMetadata(r) &&
      (startedAfter === undefined || Date.parse(r.startedAt) >= startedAfter) &&
      (template === undefined || r.templateID === template),
  )
  const totalRunning = states.has('running')
    ? matching.filter((r) => r.state === 'running').length
    : undefined
  const sorted = matching.filter((r) => !cursor || afterCursor(r, cursor, order)).sort(compare(order))
  const rows = sorted.slice(0, limit)
  const last = rows[rows.length - 1]
  return {
    rows,
    ...(sorted.length > limit && last ? { nextToken: makeToken(last, order) } : {}),
    ...(totalRunning === undefined ? {} : { totalRunning }),
  }
}
