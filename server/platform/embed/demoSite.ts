import { readFile } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { browserHost } from '../../http/browserHost'
import type { IdeCredentials } from '../access/ideCredentials'
import { readJsonBody, sendError, sendJson } from '../api/httpJson'
import { signInBody } from '../ide/ideSchemas'
import { localSession } from '../ide/localSession'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import { demoHostName } from './embedPolicy'

export interface DemoSiteOptions {
  projectRoot: string
  manager: SandboxManager
  envdVersion: string
  /** The sandbox the demo embeds: the IDE's default one. */
  defaultSandboxId: () => string | null
  /** Only a loopback listener hands a sandbox token to a page. */
  loopback: boolean
  /** The IDE's: the demo's page signs in with the same link token, on its own host. */
  credentials: IdeCredentials
}

/** True for an address that only this machine reaches. */
export function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

/** True for requests to the demo's own host name. */
export function isDemoRequest(req: IncomingMessage): boolean {
  return browserHost(req.headers.host)?.name === demoHostName
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
}

/** The typed embed client (packages/embed, from its sources) as one browser module, bundled on first use. */
function clientBundle(projectRoot: string): () => Promise<string> {
  let bundle: Promise<string> | undefined
  return () => {
    bundle ??= import('esbuild').then(async ({ build }) => {
      const result = await build({
        entryPoints: [join(projectRoot, 'packages', 'embed', 'src', 'client.ts')],
        bundle: true,
        format: 'esm',
        target: 'es2022',
        write: false,
        logLevel: 'silent',
      })
      return result.outputFiles[0]?.text ?? ''
    })
    return bundle
  }
}

/**
 * `http://embed-demo.localhost:{port}/`: a page on another origin than the IDE that embeds it,
 * as a documentation site would (examples/embed/). Its `/session` plays the site's backend: it
 * hands the page the default sandbox's runtime URL and token, to same-origin requests of a page
 * signed in with the IDE's token (its address in the start banner carries it; `POST /auth`
 * trades it for the demo host's own cookie and page key, as the IDE does on its host).
 */
export function demoSite(options: DemoSiteOptions) {
  const client = clientBundle(options.projectRoot)
  const files: Record<string, string> = { '/': 'index.html', '/demo.js': 'demo.js' }
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    try {
      if (path === '/auth' && req.method === 'POST') {
        if (req.headers['sec-fetch-site'] !== 'same-origin')
          throw new PlatformError(403, 'signing in is for the demo page itself (Sec-Fetch-Site: same-origin)')
        const { token } = await readJsonBody(req, signInBody)
        return sendJson(res, 200, options.credentials.signIn(res, token, '/'))
      }
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new PlatformError(405, 'the demo only serves GET, and POST /auth')
      if (path === '/session') return sendJson(res, 200, await session(req, options))
      if (path === '/embed-client.js') return send(res, '.js', await client())
      const file = files[path]
      if (!file) throw new PlatformError(404, `the embed demo has no ${path}`)
      send(
        res,
        file.slice(file.lastIndexOf('.')),
        await readFile(join(options.projectRoot, 'examples', 'embed', file)),
      )
    } catch (err) {
      if (err instanceof PlatformError) return sendError(res, err.status, err.message)
      sendError(res, 500, err instanceof Error ? err.message : String(err))
    }
  }
}

function send(res: ServerResponse, extension: string, body: string | Buffer): void {
  res.writeHead(200, {
    'Content-Type': types[extension] ?? 'application/octet-stream',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  })
  res.end(body)
}

/** The default sandbox's connection details, resumed if it was paused. */
async function session(req: IncomingMessage, options: DemoSiteOptions) {
  if (!options.loopback)
    throw new PlatformError(404, 'the embed demo hands out sandboxes only on a loopback listener')
  if (req.headers['sec-fetch-site'] !== 'same-origin')
    throw new PlatformError(403, 'the demo session is for the demo page itself (Sec-Fetch-Site: same-origin)')
  options.credentials.require(req)
  const id = options.defaultSandboxId()
  if (!id)
    throw new PlatformError(404, 'there is no default sandbox: start the stack without --no-default-sandbox')
  const { record } = await options.manager.connect(id)
  const { runtimeUrl, accessToken } = localSession(record, req, options.envdVersion)
  const port = browserHost(req.headers.host)?.port
  const scheme = runtimeUrl.slice(0, runtimeUrl.indexOf(':'))
  return { ideUrl: `${scheme}://127.0.0.1${port ? `:${port}` : ''}`, runtimeUrl, accessToken }
}
