import type { IncomingHttpHeaders } from 'node:http'
import { outputAckPath } from '../../../src/contract/runtimeExtensions'
import { guestTokenPrefix, type JoinLink, type JoinLinks } from './joinLinks'

/** The router's answer of its own to a call it does not forward. */
export interface GuardAnswer {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/** What the router does with one call to a sandbox's runtime. */
export type GuardVerdict =
  | { kind: 'refuse'; answer: GuardAnswer }
  /** Forward it with these headers, and let `hold` know its way to break it off (it returns the release). */
  | { kind: 'pass'; headers: IncomingHttpHeaders; hold: (breakOff: () => void) => () => void }

/**
 * What a view-only guest may call on the runtime: reads and watches, and the output of processes
 * (a terminal's, the co-editing relay's) with its acknowledgements. Anything else changes the
 * sandbox: a write, a move, a removal, a directory, an upload, a process started, input, a
 * signal, a resize. A call not listed is refused, so an RPC added later starts out refused.
 */
const viewOnlyCalls = new Set([
  'GET /health',
  'GET /files',
  'HEAD /files',
  'GET /envs',
  'GET /metrics',
  `POST ${outputAckPath}`,
  'POST /filesystem.Filesystem/Stat',
  'POST /filesystem.Filesystem/ListDir',
  'POST /filesystem.Filesystem/WatchDir',
  'POST /filesystem.Filesystem/CreateWatcher',
  'POST /filesystem.Filesystem/GetWatcherEvents',
  'POST /filesystem.Filesystem/RemoveWatcher',
  'POST /process.Process/List',
  'POST /process.Process/Connect',
])

const refusal = 'this share link is view-only: it cannot change the sandbox'

/**
 * A refusal as the runtime's callers read errors: a Connect RPC gets Connect's permission_denied
 * (403 with its JSON body, or, for a streaming call, 200 and an end-of-stream message carrying
 * the error, as connect-go answers), anything else envd's own `{"code":403,"message":…}`.
 */
export function permissionDenied(path: string, contentType: string | undefined): GuardAnswer {
  const headers = { 'access-control-allow-origin': '*', 'x-content-type-options': 'nosniff' }
  const rpc = /^\/[a-z]+\.[A-Za-z]+\/[A-Za-z]+$/.test(path)
  if (rpc && contentType?.startsWith('application/connect+')) {
    const json = Buffer.from(JSON.stringify({ error: { code: 'permission_denied', message: refusal } }))
    const head = Buffer.alloc(5)
    head.writeUInt8(0x02, 0)
    head.writeUInt32BE(json.length, 1)
    return {
      status: 200,
      headers: { ...headers, 'content-type': 'application/connect+json' },
      body: Buffer.concat([head, json]),
    }
  }
  const body = rpc ? { code: 'permission_denied', message: refusal } : { code: 403, message: refusal }
  return {
    status: 403,
    headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from(JSON.stringify(body)),
  }
}

/**
 * Guests' calls to a sandbox's runtime, in the router. A guest's page holds a token of its own
 * (from its share link's session), never the sandbox's: a call that carries one is forwarded
 * with the sandbox's token instead while the share stands, and, for a view-only guest, only if
 * it changes nothing. Every such call is held here by its link, so a revocation or the share's
 * expiry ends its open streams (a terminal, a watch, the relay) at once. A guest token that no
 * longer stands goes on as it came, and the runtime answers its usual 401.
 */
export class GuestCalls {
  private readonly open = new Map<string, { calls: Set<() => void>; expiry?: NodeJS.Timeout }>()

  constructor(
    private readonly joinLinks: Pick<JoinLinks, 'guestOf' | 'onRevoked'>,
    /** The sandbox's own runtime token, when it exists. */
    private readonly sandboxToken: (sandboxId: string) => string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    joinLinks.onRevoked((link) => this.end(link.id))
  }

  /** What to do with a call to a sandbox's runtime; undefined: not a guest's, forward it unchanged. */
  check(
    sandboxId: string,
    method: string | undefined,
    url: string | undefined,
    headers: IncomingHttpHeaders,
  ): GuardVerdict | undefined {
    const name = Object.keys(headers).find((key) => key.toLowerCase() === 'x-access-token')
    const token = name === undefined ? undefined : headers[name]
    if (typeof token !== 'string' || !token.startsWith(guestTokenPrefix)) return undefined
    const link = this.joinLinks.guestOf(token)
    const real = this.sandboxToken(sandboxId)
    if (!link || link.sandboxId !== sandboxId || real === undefined) return undefined
    const path = (url ?? '/').split('?')[0] ?? '/'
    if (link.guest?.rights === 'view' && !viewOnlyCalls.has(`${method ?? 'GET'} ${path}`)) {
      const type = headers['content-type']
      return { kind: 'refuse', answer: permissionDenied(path, typeof type === 'string' ? type : undefined) }
    }
    const forwarded: IncomingHttpHeaders = { ...headers }
    delete forwarded[name as string]
    forwarded['x-access-token'] = real
    return { kind: 'pass', headers: forwarded, hold: (breakOff) => this.hold(link, breakOff) }
  }

  /** Holds an open call of a guest's, until it ends or the share does. */
  private hold(link: JoinLink, breakOff: () => void): () => void {
    let entry = this.open.get(link.id)
    if (!entry) {
      entry = { calls: new Set() }
      // Node's timers take at most 2^31-1 ms; a share lasts a week at most.
      const left = Math.min(Date.parse(link.expiresAt) - this.now(), 2 ** 31 - 1)
      entry.expiry = setTimeout(() => this.end(link.id), Math.max(0, left))
      entry.expiry.unref()
      this.open.set(link.id, entry)
    }
    const { calls } = entry
    calls.add(breakOff)
    return () => {
      calls.delete(breakOff)
      const current = this.open.get(link.id)
      if (calls.size === 0 && current?.calls === calls) {
        clearTimeout(current.expiry)
        this.open.delete(link.id)
      }
    }
  }

  /** Ends every open call of a share at once. */
  end(linkId: string): void {
    const entry = this.open.get(linkId)
    if (!entry) return
    this.open.delete(linkId)
    clearTimeout(entry.expiry)
    for (const breakOff of [...entry.calls]) breakOff()
  }
}
