import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { PlatformError } from '../platformError'
import { cookieValue } from './cookies'
import { guestRuntimeToken, type JoinLink, type JoinLinks } from './joinLinks'

/** The request header a signed-in page sends its page key in. */
export const pageKeyHeader = 'x-sandbox-ide-key'

/** How long a browser stays signed in; rotating the token ends it sooner. */
const signedInSeconds = 30 * 24 * 60 * 60

/** Where the IDE's link and the commands that make a new one are, for every refusal. */
export const whereTheLinkIs =
  'open the address `npm start` printed (it ends in #token=…), or run `npm run ide-link` to print it again'

/** What the credentials are derived from and how the cookie is scoped. */
export interface IdeCredentialOptions {
  /** The IDE's token, current (it may be rotated while the stack runs). */
  token: () => string
  /** The port the stack listens on: cookies are shared by every port of a host, so it names them. */
  port: () => number
  /** Served over TLS: the cookie is sent over HTTPS only. */
  secure: boolean
  /** Students' links; without them only the owner's token signs in. */
  joinLinks?: JoinLinks
}

/**
 * Who is asking: the person who started the stack (or holds its token: the teacher), a student
 * whose join link opens one sandbox, or a guest whose share link opens one sandbox with the
 * rights it gives (`link.guest`), and whose page reaches the runtime with `runtimeToken`.
 */
export type Caller =
  | { role: 'owner' }
  | { role: 'student'; link: JoinLink }
  | { role: 'guest'; link: JoinLink & { guest: NonNullable<JoinLink['guest']> }; runtimeToken: string }

const owner: Caller = { role: 'owner' }

const derive = (token: string, purpose: string) =>
  createHmac('sha256', token).update(`sandbox-ide ${purpose} v1`).digest('base64url')

/** Compares without leaking where two strings differ, or their lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest()
  return timingSafeEqual(digest(given), digest(expected))
}

/**
 * Who may use what the stack offers the person who started it (the IDE API, the embed demo's
 * session). A tool sends the token itself (`Authorization: Bearer`). A browser trades it once,
 * from the link, for two values derived from it, and must send both: an HttpOnly, SameSite=Strict
 * cookie for this host alone, and a page key that its page keeps in localStorage and sends as a
 * header. The cookie is also sent to every other port of the host, where a server the user visits
 * could read it; the page key stays with this origin, but script can read it. Neither alone is
 * enough. Code in a sandbox has none of them: the token lives in the data folder, out of its view.
 */
export class IdeCredentials {
  constructor(private readonly options: IdeCredentialOptions) {}

  /** The cookie's name on this stack's port. */
  get cookieName(): string {
    return `sandbox_ide_${this.options.port()}`
  }

  /** The cookie a student's browser holds on this stack's port. */
  get studentCookieName(): string {
    return `sandbox_student_${this.options.port()}`
  }

  /** Throws 401 unless the request comes from the owner: the token, or a signed-in browser's cookie and page key. */
  require(req: IncomingMessage): void {
    if (this.identify(req).role !== 'owner')
      throw new PlatformError(401, `a student's sign-in does not open this: ${whereTheLinkIs}`)
  }

  /**
   * Who sent the request: the owner (the token as a Bearer, or the owner's cookie and page key)
   * or a student (a join link's cookie and page key). Throws 401 for anyone else.
   */
  identify(req: IncomingMessage): Caller {
    const token = this.options.token()
    const authorization = req.headers.authorization
    if (authorization !== undefined) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1]
      if (bearer && sameSecret(bearer, token)) return owner
      throw new PlatformError(
        401,
        `the Authorization header does not carry this stack's IDE token: ${whereTheLinkIs}`,
      )
    }
    const pageKey = req.headers[pageKeyHeader]
    const ownerCookie = cookieValue(req, this.cookieName)
    const studentCookie = cookieValue(req, this.studentCookieName)
    if (ownerCookie === undefined && studentCookie === undefined && pageKey === undefined)
      throw new PlatformError(401, `this browser is not signed in to the IDE: ${whereTheLinkIs}`)
    if (typeof pageKey === 'string') {
      if (
        ownerCookie !== undefined &&
        sameSecret(ownerCookie, derive(token, 'cookie')) &&
        sameSecret(pageKey, derive(token, 'page key'))
      )
        return owner
      const student = this.student(studentCookie, pageKey)
      if (student) return student
    }
    if (studentCookie !== undefined && ownerCookie === undefined)
      throw new PlatformError(
        401,
        "this browser's join link no longer opens a sandbox (it was revoked, or used again elsewhere): ask your teacher for a new link",
      )
    throw new PlatformError(
      401,
      `this browser's sign-in is not valid (the IDE's token may have been rotated): ${whereTheLinkIs}`,
    )
  }

  /** The student whose session the cookie and page key prove, if they do. */
  private student(cookie: string | undefined, pageKey: string): Caller | undefined {
    const dot = cookie?.indexOf('.') ?? -1
    if (!cookie || dot < 1 || !this.options.joinLinks) return undefined
    const sessionSecret = cookie.slice(dot + 1)
    const link = this.options.joinLinks.session(cookie.slice(0, dot), sessionSecret)
    if (!link || !sameSecret(pageKey, derive(sessionSecret, 'page key'))) return undefined
    return link.guest
      ? {
          role: 'guest',
          link: { ...link, guest: link.guest },
          runtimeToken: guestRuntimeToken(link.id, sessionSecret),
        }
      : { role: 'student', link }
  }

  /**
   * Trades a student's join link for a session of this browser: sets the student's cookie (for
   * `cookiePath` on this host) and returns the page key its page must keep, and the sandbox the
   * link opens. Throws 401 for a token that opens nothing.
   */
  join(
    res: ServerResponse,
    token: string,
    cookiePath: string,
  ): { pageKey: string; sandboxId: string; remoteId?: string } {
    if (!this.options.joinLinks) throw new PlatformError(401, 'this stack has no join links')
    const { link, sessionSecret } = this.options.joinLinks.claim(token)
    res.setHeader(
      'Set-Cookie',
      this.cookie(this.studentCookieName, `${link.id}.${sessionSecret}`, cookiePath, signedInSeconds),
    )
    return {
      pageKey: derive(sessionSecret, 'page key'),
      sandboxId: link.sandboxId,
      ...(link.remoteId ? { remoteId: link.remoteId } : {}),
    }
  }

  /**
   * Signs a browser in when `token` is the stack's: sets the cookie (for `cookiePath` on this
   * host) and returns the page key its page must keep. Throws 401 for any other token.
   */
  signIn(res: ServerResponse, token: string, cookiePath: string): { pageKey: string } {
    const current = this.options.token()
    if (!sameSecret(token, current))
      throw new PlatformError(
        401,
        `this link's token is not the IDE's (it may have been rotated): ${whereTheLinkIs}`,
      )
    res.setHeader(
      'Set-Cookie',
      this.cookie(this.cookieName, derive(current, 'cookie'), cookiePath, signedInSeconds),
    )
    return { pageKey: derive(current, 'page key') }
  }

  private cookie(name: string, value: string, path: string, maxAge: number): string {
    const secure = this.options.secure ? '; Secure' : ''
    return `${name}=${value}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`
  }
}
