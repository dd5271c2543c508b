import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { envdPort } from '../../../src/contract/runtimeExtensions'
import { browserHost } from '../../http/browserHost'
import { cookieValue, withoutCookies } from './cookies'
import type { Caller } from './ideCredentials'
import type { JoinLinks } from './joinLinks'
import { isLoopbackPeer } from './loopbackPeer'

/** The cookies that let a browser reach a sandbox's ports, one per sandbox; apps never see them. */
const cookiePrefix = 'sandbox_port_'
/** A school day; opening the sandbox in the IDE again renews it. */
const cookieSeconds = 12 * 60 * 60

/** Who a cookie was made for: the owner, or a student's join link by its id. */
type Subject = 'owner' | `link:${string}`

function sameMac(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Who may reach a sandbox's ports (a dev server, a preview) from another machine: the owner and
 * the student whose sandbox it is. When either opens the sandbox in the IDE (its session), the
 * answer sets a cookie for that sandbox on the stack's `--domain`, so every port of it, at
 * `{port}-{id}.{domain}`, opens in a preview, a new tab or from a terminal's link alike. The
 * router takes every such cookie out before a request goes on, so no app (or runtime) ever
 * sees one. Cookies are signed with a key made at start (a restart asks the IDE again), and a
 * student's cookie lapses with their link: revoked, the ports close to them at once. The owner's
 * own machine (loopback) passes as before, and the runtime's port wants its own token anyway.
 */
export class PortAccess {
  private readonly key = randomBytes(32)

  constructor(
    private readonly joinLinks: Pick<JoinLinks, 'list'>,
    private readonly options: { domain?: string; secure: boolean },
  ) {}

  private mac(sandboxId: string, subject: Subject, expires: number): string {
    return createHmac('sha256', this.key)
      .update(`port ${sandboxId} ${subject} ${expires}`)
      .digest('base64url')
  }

  /** Lets the caller's browser reach the sandbox's ports, when it is on another machine. */
  grant(req: IncomingMessage, res: ServerResponse, caller: Caller | undefined, sandboxId: string): void {
    const { domain, secure } = this.options
    // A cookie for the domain can only be set by a page on it (a bare address has no ports anyway).
    const onDomain = domain !== undefined && browserHost(req.headers.host)?.name === domain
    if (!onDomain || !caller || isLoopbackPeer(req.socket?.remoteAddress)) return
    const subject: Subject = caller.role === 'owner' ? 'owner' : `link:${caller.link.id}`
    const expires = Math.floor(Date.now() / 1000) + cookieSeconds
    const value = `${subject}.${expires}.${this.mac(sandboxId, subject, expires)}`
    const cookie = `${cookiePrefix}${sandboxId}=${value}; Domain=${domain}; Path=/; Max-Age=${cookieSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`
    const set = res.getHeader('Set-Cookie')
    res.setHeader('Set-Cookie', [...(Array.isArray(set) ? set : set ? [String(set)] : []), cookie])
  }

  /** Whether the request carries a cookie that opens this sandbox's ports. */
  private allows(req: IncomingMessage, sandboxId: string): boolean {
    const [subject, expiresText, mac] = (cookieValue(req, `${cookiePrefix}${sandboxId}`) ?? '').split('.')
    const expires = Number(expiresText)
    if (!subject || !mac || !Number.isInteger(expires) || expires < Date.now() / 1000) return false
    if (subject !== 'owner' && !subject.startsWith('link:')) return false
    if (!sameMac(mac, this.mac(sandboxId, subject as Subject, expires))) return false
    if (subject === 'owner') return true
    const id = subject.slice('link:'.length)
    return this.joinLinks
      .list({ sandbox: { sandboxId } })
      .some((l) => l.id === id && l.claimedAt !== undefined)
  }

  /**
   * Before the router: whether a request to a sandbox may go on (with the port cookies taken
   * out). A request from another machine to a port other than the runtime's needs its cookie.
   */
  mayPass(req: IncomingMessage, target: { sandboxId: string; port: number }): boolean {
    const guarded = target.port !== envdPort && !isLoopbackPeer(req.socket?.remoteAddress)
    if (guarded && !this.allows(req, target.sandboxId)) return false
    if (req.headers.cookie?.includes(cookiePrefix)) {
      const rest = withoutCookies(req.headers.cookie, (name) => name.startsWith(cookiePrefix))
      if (rest === undefined) delete req.headers.cookie
      else req.headers.cookie = rest
    }
    return true
  }
}

/** The refusal of a port to a browser without its cookie: a short page a person reads. */
export function refusePort(res: ServerResponse): void {
  const page =
    '<!doctype html><meta charset="utf-8"><title>Sandbox port</title>' +
    '<p>This port of a sandbox opens for its student and teacher only: open the sandbox in the IDE first, then the port from there.</p>'
  res.writeHead(401, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(page),
    'Cache-Control': 'no-store',
  })
  res.end(page)
}
