import type { IncomingMessage, ServerResponse } from 'node:http'
import type { EmbedConfig, SignedInAnswer, SignInAnswer, StackInfo } from '../../../src/contract/ideApiTypes'
import type { IdeCredentials } from '../access/ideCredentials'
import { readJsonBody, sendError, sendJson } from '../api/httpJson'
import type { SandboxDisks } from '../disk/sandboxDisks'
import type { EmbedPolicy } from '../embed/embedPolicy'
import type { SandboxLauncher } from '../launcher/sandboxLauncher'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import type { TemplateCatalog } from '../templates/templateCatalog'
import { guardIdeRequest } from './ideRequestGuard'
import type { IdeRoute } from './ideRoute'
import { signInBody } from './ideSchemas'
import { localSandboxRoutes } from './localSandboxRoutes'
import { remoteRoutes } from './remoteRoutes'
import { RemoteStore } from './remoteStore'

const prefix = '/ide/api'

/** What the IDE API needs from the platform. */
export interface IdeApiOptions {
  manager: SandboxManager
  templates: Pick<TemplateCatalog, 'ids'>
  launcher: Pick<SandboxLauncher, 'isolation' | 'network' | 'system' | 'limits' | 'freezer' | 'warning'>
  disks: Pick<SandboxDisks, 'kind' | 'warning'>
  envdVersion: string
  /** The platform's --host: the one name besides loopback names the API answers on. */
  host: string
  /** Who may call it: every route but signing in and the embed policy needs them. */
  credentials: IdeCredentials
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
 * The API the IDE's own page calls on its platform: the stack, the local sandboxes, and E2B
 * remotes whose keys never leave this server. Every request must prove it comes from the person
 * who started the stack (see IdeCredentials); on top of that it answers only same-origin requests
 * on a loopback or the configured host name (see guardIdeRequest), and never with CORS.
 */
export function ideApi(options: IdeApiOptions) {
  const { launcher, envdVersion, credentials } = options
  const auth: IdeRoute = {
    pattern: /^\/auth$/,
    open: true,
    methods: {
      GET: async (req, res) => {
        credentials.require(req)
        sendJson(res, 200, { signedIn: true } satisfies SignedInAnswer)
      },
      POST: async (req, res) => {
        const { token } = await readJsonBody(req, signInBody)
        sendJson(res, 200, credentials.signIn(res, token, prefix) satisfies SignInAnswer)
      },
    },
  }
  const stack: IdeRoute = {
    pattern: /^\/stack$/,
    methods: {
      GET: async (_req, res) => {
        sendJson(res, 200, {
          isolation: launcher.isolation,
          network: launcher.network,
          system: launcher.system,
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
          defaultSandboxId: options.defaultSandboxId(),
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
  const routes: IdeRoute[] = [
    auth,
    stack,
    embed,
    ...localSandboxRoutes({
      manager: options.manager,
      templates: options.templates,
      envdVersion,
      defaultSandboxId: options.defaultSandboxId,
      defaultTimeoutSeconds: options.defaultSandboxTimeout,
    }),
    ...remoteRoutes(new RemoteStore(options.dataDir), options.log),
  ]

  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    try {
      guardIdeRequest(req, options.host)
      const path = url.pathname.slice(prefix.length).replace(/\/$/, '') || '/'
      const found = findRoute(routes, path)
      // Before saying what exists: a caller without the credential learns nothing but 401.
      if (!found?.route.open) credentials.require(req)
      if (!found) throw new PlatformError(404, `no such endpoint: ${req.method} ${url.pathname}`)
      const handler = found.route.methods[req.method ?? '']
      if (!handler) {
        res.setHeader('Allow', Object.keys(found.route.methods).join(', '))
        throw new PlatformError(405, `method ${req.method} is not allowed on ${url.pathname}`)
      }
      await handler(req, res, found.params)
    } catch (err) {
      if (err instanceof PlatformError) {
        if (err.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="sandbox-ide"')
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
