import type { IncomingMessage, ServerResponse } from 'node:http'
import type {
  EmbedConfig,
  JoinAnswer,
  SignedInAnswer,
  SignInAnswer,
  StackInfo,
} from '../../../src/contract/ideApiTypes'
import { FailureLimiter } from '../access/failureLimiter'
import type { Caller, IdeCredentials } from '../access/ideCredentials'
import type { JoinLinks } from '../access/joinLinks'
import type { PortAccess } from '../access/portAccess'
import { readJsonBody, sendError, sendJson } from '../api/httpJson'
import type { ClassBoard } from '../class/classBoard'
import type { ClassDeadlines } from '../class/classDeadlines'
import { localClassPlace } from '../class/classPlace'
import { examIsOver } from '../class/examCloser'
import { GradingJobs } from '../class/grading/gradingJobs'
import { SubmissionStore } from '../class/grading/submissionStore'
import { TeacherPresence } from '../class/teacherPresence'
import type { SandboxDisks } from '../disk/sandboxDisks'
import type { EmbedPolicy } from '../embed/embedPolicy'
import type { SandboxLauncher } from '../launcher/sandboxLauncher'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import { sameSandbox } from '../sandboxRef'
import type { TemplateCatalog } from '../templates/templateCatalog'
import { classRoutes } from './classRoutes'
import { classScopes } from './classScope'
import { deadlineRoutes } from './deadlineRoutes'
import { gradebookRoutes } from './gradebookRoutes'
import { guardIdeRequest } from './ideRequestGuard'
import type { IdeRoute } from './ideRoute'
import { signInBody } from './ideSchemas'
import { joinLinkRoutes } from './joinLinkRoutes'
import { localSandboxRoutes } from './localSandboxRoutes'
import { remoteRoutes } from './remoteRoutes'
import { RemoteStore } from './remoteStore'
import { shareLinkRoutes } from './shareLinkRoutes'
import { similarityRoutes } from './similarityRoutes'
import { submissionDeleteRoutes } from './submissionDeleteRoutes'
import { submissionRoutes } from './submissionRoutes'

const prefix = '/ide/api'

/** What the IDE API needs from the platform. */
export interface IdeApiOptions {
  manager: SandboxManager
  templates: Pick<TemplateCatalog, 'ids' | 'folder'>
  launcher: Pick<
    SandboxLauncher,
    'isolation' | 'network' | 'system' | 'root' | 'rootWarning' | 'limits' | 'freezer' | 'warning'
  >
  disks: Pick<SandboxDisks, 'kind' | 'warning'>
  envdVersion: string
  /** The platform's --host and --domain: the names besides loopback names the API answers on. */
  host: string
  domain?: string
  /** Who may call it: every route but signing in and the embed policy needs them. */
  credentials: IdeCredentials
  /** The students' join links the owner gives out. */
  joinLinks: JoinLinks
  /** Opening a sandbox lets a browser on another machine reach its ports. */
  portAccess: PortAccess
  /** The teacher's dashboard of each class. */
  classBoard: ClassBoard
  /** The classes' deadlines, and exam mode's look at them (run again when one changes). */
  deadlines: ClassDeadlines
  examPass: () => Promise<void>
  /** Where remotes.json lives. */
  dataDir: string
  /** Timeout of sandboxes the IDE creates or resumes without one (seconds). */
  defaultSandboxTimeout: number
  /** The IDE's default sandbox while it exists. */
  defaultSandboxId: () => string | null
  /** Which pages may embed the IDE, for its /embed page. */
  embedPolicy: () => EmbedPolicy
  log: (line: string) => void
}

/** True for the paths the IDE API serves (everything under /ide/api). */
export function isIdeApiPath(path: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`)
}

function findRoute(routes: IdeRoute[], path: string): { route: IdeRoute; params: string[] } | undefined {
  for (const route of routes) {
    const match = path.match(route.pattern)
    if (match) return { route, params: match.slice(1) }
  }
  return undefined
}

/**
 * Throws 403 unless the caller may use the route: the owner always, a student or a guest where
 * it says so (a view-only guest nothing that changes the sandbox).
 */
function mayCall(caller: Caller, route: IdeRoute, params: string[]): void {
  if (caller.role === 'owner') return
  if (caller.role === 'guest' && caller.link.guest.rights === 'view' && route.changesSandbox)
    throw new PlatformError(403, 'this share link is view-only: it cannot change the sandbox')
  if (route.students === 'any') return
  const sandbox = route.sandboxOf?.(params) ?? { sandboxId: params[0] ?? '' }
  if (route.students === 'own-sandbox' && sameSandbox(sandbox, caller.link)) return
  throw new PlatformError(
    403,
    caller.role === 'guest'
      ? 'a share link opens its own sandbox only'
      : "a student's join link opens their own sandbox only",
  )
}

/** Who the caller is, as the page is told (GET /auth). */
function signedInAs(caller: Caller): SignedInAnswer {
  if (caller.role === 'owner') return { signedIn: true, role: 'owner' }
  const { link } = caller
  if (caller.role === 'guest')
    return {
      signedIn: true,
      role: 'guest',
      sandboxId: link.sandboxId,
      name: caller.link.guest.name,
      rights: caller.link.guest.rights,
      expiresAt: link.expiresAt,
    }
  return {
    signedIn: true,
    role: 'student',
    sandboxId: link.sandboxId,
    ...(link.remoteId ? { remoteId: link.remoteId } : {}),
    student: link.student,
  }
}

/**
 * The API the IDE's own page calls on its platform: the stack, the local sandboxes, and E2B
 * remotes whose keys never leave this server. Every request must prove it comes from the person
 * who started the stack (see IdeCredentials); on top of that it answers only same-origin requests
 * on a loopback or the configured host name (see guardIdeRequest), and never with CORS.
 */
export function ideApi(options: IdeApiOptions) {
  const { launcher, envdVersion, credentials } = options
  const presence = new TeacherPresence()
  const auth: IdeRoute = {
    pattern: /^\/auth$/,
    open: true,
    methods: {
      GET: async (req, res) => {
        sendJson(res, 200, signedInAs(credentials.identify(req)))
      },
      POST: async (req, res) => {
        const { token } = await readJsonBody(req, signInBody)
        sendJson(res, 200, credentials.signIn(res, token, prefix) satisfies SignInAnswer)
      },
    },
  }
  // A student's join link, traded once for this browser's session.
  const join: IdeRoute = {
    pattern: /^\/join$/,
    open: true,
    methods: {
      POST: async (req, res) => {
        const { token } = await readJsonBody(req, signInBody)
        sendJson(res, 200, credentials.join(res, token, prefix) satisfies JoinAnswer)
      },
    },
  }
  const stack: IdeRoute = {
    pattern: /^\/stack$/,
    students: 'any',
    methods: {
      GET: async (_req, res, _params, caller) => {
        sendJson(res, 200, {
          isolation: launcher.isolation,
          network: launcher.network,
          system: launcher.system,
          root: { kind: launcher.root, ...(launcher.rootWarning ? { warning: launcher.rootWarning } : {}) },
          limits: {
            kind: launcher.limits.kind,
            enforced: launcher.limits.enforced,
            ...(launcher.limits.warning ? { warning: launcher.limits.warning } : {}),
          },
          disk: {
            kind: options.disks.kind,
            ...(options.disks.warning ? { warning: options.disks.warning } : {}),
          },
          freezer: launcher.freezer,
          ...(launcher.warning ? { warning: launcher.warning } : {}),
          envdVersion,
          // The owner's own sandbox is none of a student's business.
          defaultSandboxId: caller?.role === 'owner' ? options.defaultSandboxId() : null,
        } satisfies StackInfo)
      },
    },
  }
  // Which origins may embed the IDE: public (the CSP header says as much), and asked for by an
  // /embed page inside another site, where the IDE's SameSite=Strict cookie is never sent.
  const embed: IdeRoute = {
    pattern: /^\/embed$/,
    open: true,
    methods: { GET: async (_req, res) => sendJson(res, 200, options.embedPolicy() satisfies EmbedConfig) },
  }
  const remotes = new RemoteStore(options.dataDir, options.log)
  const submissions = new SubmissionStore(options.dataDir)
  const gradings = new GradingJobs()
  // The gradebook's and deadline's class routes, for the stack's own classes and E2B's.
  const scopes = classScopes({ manager: options.manager, remotes })
  const routes: IdeRoute[] = [
    auth,
    join,
    stack,
    embed,
    ...localSandboxRoutes({
      manager: options.manager,
      templates: options.templates,
      envdVersion,
      defaultSandboxId: options.defaultSandboxId,
      defaultTimeoutSeconds: options.defaultSandboxTimeout,
      ...(options.domain ? { domain: options.domain } : {}),
      portAccess: options.portAccess,
      presence,
      mayResume: (record, caller) => {
        if (caller?.role !== 'owner' && examIsOver(options.deadlines, record.metadata))
          throw new PlatformError(
            403,
            'the deadline has passed: this exam’s sandbox stays closed (the teacher can still open it)',
          )
      },
    }),
    ...joinLinkRoutes({ joinLinks: options.joinLinks, manager: options.manager, remotes }),
    ...shareLinkRoutes({ joinLinks: options.joinLinks, manager: options.manager }),
    ...classRoutes({
      board: options.classBoard,
      local: localClassPlace(options.manager),
      remotes,
      joinLinks: options.joinLinks,
    }),
    ...remoteRoutes({ store: remotes, presence, log: options.log }),
    ...submissionRoutes({
      manager: options.manager,
      templates: options.templates,
      store: submissions,
      gradings,
      deadlines: options.deadlines,
      remotes,
    }),
    ...gradebookRoutes({
      manager: options.manager,
      templates: options.templates,
      store: submissions,
      gradings,
      deadlineOf: (name) => options.deadlines.get(name),
      remotes,
      scopes,
    }),
    ...deadlineRoutes({
      manager: options.manager,
      store: submissions,
      deadlines: options.deadlines,
      changed: () => void options.examPass(),
      remotes,
      scopes,
    }),
    ...submissionDeleteRoutes({ store: submissions, gradings, scopes }),
    ...similarityRoutes({ templates: options.templates, store: submissions, scopes }),
  ]
  const limiter = new FailureLimiter()

  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const peer = req.socket.remoteAddress
    try {
      guardIdeRequest(req, options.host, options.domain)
      limiter.check(peer)
      const path = url.pathname.slice(prefix.length).replace(/\/$/, '') || '/'
      const found = findRoute(routes, path)
      // Before saying what exists: a caller without the credential learns nothing but 401.
      const caller = found?.route.open ? undefined : credentials.identify(req)
      if (!found) throw new PlatformError(404, `no such endpoint: ${req.method} ${url.pathname}`)
      if (caller) mayCall(caller, found.route, found.params)
      // What the teacher's dashboard shows as a student's last activity where the stack sees no
      // more (a sandbox on E2B): their page calling about their sandbox.
      if (caller?.role === 'student') options.classBoard.seen(caller.link)
      const handler = found.route.methods[req.method ?? '']
      if (!handler) {
        res.setHeader('Allow', Object.keys(found.route.methods).join(', '))
        throw new PlatformError(405, `method ${req.method} is not allowed on ${url.pathname}`)
      }
      await handler(req, res, found.params, caller)
    } catch (err) {
      if (err instanceof PlatformError) {
        if (err.status === 401) {
          limiter.failed(peer)
          res.setHeader('WWW-Authenticate', 'Bearer realm="sandbox-ide"')
        }
        sendError(res, err.status, err.message)
        return
      }
      options.log(
        `ide api: ${req.method} ${url.pathname} failed: ${err instanceof Error ? err.stack : String(err)}`,
      )
      sendError(res, 500, 'internal error')
    }
  }
}
