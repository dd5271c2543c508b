import type { IncomingMessage, ServerResponse } from 'node:http'
import { ConnectError } from '@connectrpc/connect'
import { downloadParam } from '../../../src/contract/runtimeExtensions'
import { sendEnvdError } from '../accessToken'
import type { RuntimeContext } from '../context'
import { messageOf } from '../errors'
import { resolvePath } from '../paths'
import { userFromBasic } from '../userInterceptor'
import type { User } from '../users'
import { FilesError } from './filesError'
import { receiveUpload } from './receiveUpload'
import { sendFile } from './sendFile'
import { signingError } from './signing'

/** The Connect-style 401 envd's authn middleware writes for an unknown Basic user. */
function sendUnauthenticated(res: ServerResponse, message: string): void {
  const body = JSON.stringify({ code: 'unauthenticated', message })
  res.writeHead(401, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
  res.end(body)
}

/** Go's generated wrapper answers a query parameter it cannot parse with plain text. */
function sendPlain400(res: ServerResponse, message: string): void {
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' })
  res.end(`${message}\n`)
}

/** `signature_expiration` as Go's ParseInt reads it; NaN when present but not an integer. */
function parseExpiration(raw: string | null): number | undefined {
  if (raw === null) return undefined
  return /^[+-]?\d+$/.test(raw) ? Number(raw) : Number.NaN
}

/** The user a /files request acts as: `username` from the query, else the default user. */
function queryUser(url: URL, rt: RuntimeContext): User {
  const name = url.searchParams.get('username')
  if (!name) return rt.users.defaultUser
  const user = rt.users.lookup(name)
  if (!user) throw new FilesError(401, `error looking up user '${name}': user: unknown user ${name}`)
  return user
}

/** A client path resolved for `user`; a bad one (`~other`, NUL) is 400. */
function resolveFor(path: string, user: User, rt: RuntimeContext): string {
  try {
    return resolvePath(path, user, rt.options.defaultWorkdir)
  } catch (err) {
    const message = err instanceof ConnectError ? err.rawMessage : messageOf(err)
    throw new FilesError(400, `error expanding and resolving path '${path}': ${message}`)
  }
}

/**
 * GET and POST /files (envd-api.md §7), after the server's token gate (which exempts them):
 * Basic user check, then the signing rules (§2.2), the `username` and `path` query, then the
 * download or the upload. Failures answer envd's `{"code":N,"message":…}`.
 */
export function filesHandler(rt: RuntimeContext) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.writeHead(405, { Allow: 'GET, POST' }).end()
      return
    }
    // A client that goes away mid-upload is seen by the upload's own pipeline and close
    // handler; without a listener the abort would be an uncaught exception.
    req.on('error', () => {})
    try {
      userFromBasic(req.headers.authorization, rt.users)
    } catch (err) {
      sendUnauthenticated(res, err instanceof ConnectError ? err.rawMessage : messageOf(err))
      return
    }
    const expiration = parseExpiration(url.searchParams.get('signature_expiration'))
    if (Number.isNaN(expiration)) {
      sendPlain400(res, 'Invalid format for parameter signature_expiration: not an integer')
      return
    }
    const headerToken = req.headers['x-access-token']
    const denied = signingError({
      operation: req.method === 'GET' ? 'read' : 'write',
      accessToken: rt.options.accessToken,
      headerToken: typeof headerToken === 'string' ? headerToken : undefined,
      query: url.searchParams,
      expiration,
      nowSeconds: Math.floor(Date.now() / 1000),
    })
    try {
      if (denied !== undefined) throw new FilesError(401, denied)
      const user = queryUser(url, rt)
      const rawPath = url.searchParams.get('path')
      if (req.method === 'GET') {
        // Our extension: `download=1` asks for `attachment`, so a browser saves what it opens.
        const disposition = url.searchParams.get(downloadParam) === '1' ? 'attachment' : 'inline'
        await sendFile(req, res, resolveFor(rawPath ?? '', user, rt), disposition)
        return
      }
      const files = await receiveUpload(req, {
        user,
        path: rawPath === null ? undefined : resolveFor(rawPath, user, rt),
        resolve: (path) => resolveFor(path, user, rt),
        ...(rt.journal ? { journal: rt.journal } : {}),
      })
      const body = JSON.stringify(files)
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
      })
      res.end(body)
    } catch (err) {
      if (!(err instanceof FilesError)) throw err
      if (res.headersSent) res.destroy()
      else sendEnvdError(res, err.status, err.message)
    }
  }
}
