import { createHash, createHmac, randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { PlatformError } from '../platformError'
import { readJsonRecordOrSetAside, writeRecordFile } from '../recordFile'
import { type SandboxRef, sameSandbox } from '../sandboxRef'

/** A student's way into one sandbox: a join link's token, then the session it was traded for. */
export interface JoinLink {
  /** Public: names the link in lists, revocation and the student's cookie. */
  id: string
  sandboxId: string
  /** The E2B remote the sandbox lives on; absent for the stack's own. */
  remoteId?: string
  student: string
  className?: string
  /** The secret of the link (`/join#token=…`), 256 bits; good once. */
  token: string
  createdAt: string
  expiresAt: string
  /** When the link was traded for a session; the token opens nothing after that. */
  claimedAt?: string
  /** SHA-256 of the session secret the student's browser holds (never the secret itself). */
  sessionHash?: string
  /**
   * A share link the owner made for someone to join their sandbox (a guest), with these rights;
   * absent for a student's join link. A share link's session ends at `expiresAt` too.
   */
  guest?: GuestRights
  /** A guest's: SHA-256 of the token its page sends the runtime instead of the sandbox's own. */
  runtimeHash?: string
}

/** What a share link lets its guest do, and the name the others see. */
export interface GuestRights {
  name: string
  rights: 'edit' | 'view'
}

/** Which links a list holds: students' join links (the default), guests' share links, or both. */
export type LinkKind = 'student' | 'guest' | 'any'

/** The prefix of a guest's runtime token, which the router trades for the sandbox's own. */
export const guestTokenPrefix = 'guest.'

/**
 * The token a guest's page sends the runtime (X-Access-Token): made from the session secret,
 * so only the guest's browser (through its session) can have it, and it names its link.
 */
export function guestRuntimeToken(linkId: string, sessionSecret: string): string {
  const mac = createHmac('sha256', sessionSecret).update('sandbox-ide guest runtime v1').digest('base64url')
  return `${guestTokenPrefix}${linkId}.${mac}`
}

/** What a teacher asks for when issuing a link. */
export interface JoinLinkRequest {
  sandboxId: string
  remoteId?: string
  student: string
  className?: string
  /** Seconds the link may wait to be used (a share link: until its session ends too). */
  expiresInSeconds: number
  /** A share link's guest: their name and rights. */
  guest?: GuestRights
}

const secret = () => randomBytes(32).toString('base64url')
const digest = (value: string) => createHash('sha256').update(value).digest('hex')

/** The answer for every link that opens nothing, whatever the reason, so guessing learns nothing. */
const notAJoinLink = (why: string) =>
  new PlatformError(401, `this join link does not open a sandbox (${why}): ask your teacher for a new one`)

/**
 * The join links a teacher gave out, in `<data>/join-links.json` (mode 0600, in the data folder
 * that no sandbox can see; the tokens are kept so the class's links can be printed again).
 * A link is used once: its token is traded for a session secret that only the student's browser
 * holds (here only its hash), so a link seen on a projector or in a chat is worth nothing after
 * its student opened it. Revoking a link ends its session too.
 */
export class JoinLinks {
  private links: JoinLink[] | undefined
  private readonly revokedListeners: ((link: JoinLink) => void)[] = []

  /**
   * @param exists whether a sandbox still exists: a killed sandbox's links and sessions open
   *   nothing, and go from the file at the next change (an E2B sandbox's until its class ends:
   *   E2B answers for one that is gone)
   */
  constructor(
    private readonly dataDir: string,
    private readonly exists: (sandbox: SandboxRef) => boolean,
    /** Where a damaged file of links is reported. */
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  private get path(): string {
    return join(this.dataDir, 'join-links.json')
  }

  private all(): JoinLink[] {
    this.links ??=
      readJsonRecordOrSetAside(
        this.path,
        'a list of join links',
        (value) => (Array.isArray(value) ? (value as JoinLink[]) : undefined),
        this.log,
      ) ?? []
    return this.links
  }

  private save(): void {
    this.links = this.all().filter((l) => this.exists(l))
    writeRecordFile(this.path, JSON.stringify(this.all(), null, 1))
  }

  /** A new link for one student's sandbox. */
  issue(request: JoinLinkRequest): JoinLink {
    const created = this.now()
    const link: JoinLink = {
      id: randomBytes(9).toString('base64url'),
      sandboxId: request.sandboxId,
      ...(request.remoteId ? { remoteId: request.remoteId } : {}),
      student: request.student,
      ...(request.className ? { className: request.className } : {}),
      token: secret(),
      createdAt: new Date(created).toISOString(),
      expiresAt: new Date(created + request.expiresInSeconds * 1000).toISOString(),
      ...(request.guest ? { guest: { name: request.guest.name, rights: request.guest.rights } } : {}),
    }
    this.all().push(link)
    this.save()
    return link
  }

  /**
   * The links, optionally of one class (of the stack's own sandboxes, or of an E2B remote's
   * when `remoteId` is given) or of one sandbox.
   */
  list(
    filter: { className?: string; remoteId?: string; sandbox?: SandboxRef; kind?: LinkKind } = {},
  ): JoinLink[] {
    const kind = filter.kind ?? 'student'
    return this.all().filter(
      (l) =>
        this.exists(l) &&
        (kind === 'any' || (kind === 'guest') === (l.guest !== undefined)) &&
        (filter.className === undefined ||
          (l.className === filter.className && (l.remoteId ?? '') === (filter.remoteId ?? ''))) &&
        (filter.sandbox === undefined || sameSandbox(l, filter.sandbox)),
    )
  }

  /** Removes links (and so their sessions); how many went. */
  revoke(which: (link: JoinLink) => boolean): number {
    const gone = this.all().filter(which)
    this.links = this.all().filter((l) => !which(l))
    if (gone.length > 0) this.save()
    for (const link of gone) for (const listener of this.revokedListeners) listener(link)
    return gone.length
  }

  /** Calls `listener` with each link revoked from now on (its open calls are to end at once). */
  onRevoked(listener: (link: JoinLink) => void): void {
    this.revokedListeners.push(listener)
  }

  /**
   * Trades a link's token for a session: the link and the secret its browser must send back.
   * Throws 401 for a token that is unknown, revoked, expired or already used.
   */
  claim(token: string): { link: JoinLink; sessionSecret: string } {
    const hash = digest(token)
    // Compared by digest: equal-length values, and no early exit on a token's first bytes.
    const link = this.all().find((l) => digest(l.token) === hash)
    if (!link || !this.exists(link))
      throw notAJoinLink('it is not one of this class’s links, or it was revoked')
    if (link.claimedAt) throw notAJoinLink('it was already used; a link opens one browser')
    if (Date.parse(link.expiresAt) <= this.now()) throw notAJoinLink('it has expired')
    const sessionSecret = secret()
    link.claimedAt = new Date(this.now()).toISOString()
    link.sessionHash = digest(sessionSecret)
    if (link.guest) link.runtimeHash = digest(guestRuntimeToken(link.id, sessionSecret))
    this.save()
    return { link, sessionSecret }
  }

  /** The link whose session this is, if it still stands. */
  session(linkId: string, sessionSecret: string): JoinLink | undefined {
    const link = this.all().find((l) => l.id === linkId)
    const holds = link?.sessionHash !== undefined && link.sessionHash === digest(sessionSecret)
    return holds && this.stands(link) ? link : undefined
  }

  /** The guest's link a runtime token (from guestRuntimeToken) stands for, if its session still stands. */
  guestOf(runtimeToken: string): JoinLink | undefined {
    if (!runtimeToken.startsWith(guestTokenPrefix)) return undefined
    const id = runtimeToken.slice(guestTokenPrefix.length).split('.')[0]
    const link = this.all().find((l) => l.id === id && l.guest !== undefined)
    const holds = link?.runtimeHash !== undefined && link.runtimeHash === digest(runtimeToken)
    return holds && this.stands(link) ? link : undefined
  }

  /** A link's sandbox exists, and a share link has not expired (its session ends then too). */
  private stands(link: JoinLink): boolean {
    return this.exists(link) && !(link.guest && Date.parse(link.expiresAt) <= this.now())
  }
}
