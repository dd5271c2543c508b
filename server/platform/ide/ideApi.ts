import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendError, sendJson } from '../api/httpJson'
import type { EmbedPolicy } from '../embed/embedPolicy'
import type { SandboxLauncher } from '../launcher/sandboxLauncher'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import type { TemplateCatalog } from '../templates/templateCatalog'
import { guardIdeRequest } from './ideRequestGuard'
import type { IdeRoute } from './ideRoute'
import { localSandboxRoutes } from './localSandboxRoutes'
import { remoteRoutes } from './remoteRoutes'
import { RemoteStore } from './remoteStore'

const prefix = '/ide/api'

/** What the IDE API needs from the platform. */
export interface IdeApiOptions {
  manager: SandboxManager
  templates: Pick<TemplateCatalog, 'ids'>
  launcher: Pick<SandboxLauncher, 'isolation' | 'freezer' | 'warning'>
  envdVersion: string
  /** The platform's --host: the one name besides loopback names the API answers on. */
  host: string
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

/**
 * The API the IDE's own page calls on its platform: the stack, the local sandboxes, and E2B
 * remotes whose keys never leave this server. It answers only same-origin requests from a
 * loopback page (see guardIdeRequest) and never with CORS.
 */
export function ideApi(options: IdeApiOptions) {
  const { launcher, envdVersion } = options
  const stack: IdeRoute = {
    pattern: /^\/stack$/,
    methods: {
      GET: async (_req, res) => {
        sendJson(res, 200, {
          isolation: launcher.isolation,
          freezer: launcher.freezer,
          ...(launcher.warning ? { warning: launcher.warning } : {}),
          envdVersion,
          defaultSandboxId: options.defaultSandboxId(),
        })
      },
    },
  }
  const embed: IdeRoute = {
    pattern: /^\/embed$/,
    methods: { GET: async (_req, res) => sendJson(res, 200, options.embedPolicy()) },
  }
  const routes: IdeRoute[] = [
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
      for (const route of routes) {
        const match = path.match(route.pattern)
        if (!match) continue
        const handler = route.methods[req.method ?? '']
        if (!handler) {
          res.setHeader('Allow', Object.keys(route.methods).join(', '))
          throw new PlatformError(405, `method ${req.method} is not allowed on ${url.pathname}`)
        }
        await handler(req, res, match.slice(1))
        return
      }
      throw new PlatformError(404, `no such endpoint: ${req.method} ${url.pathname}`)
    } catch (err) {
      if (err instanceof PlatformError) {
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
