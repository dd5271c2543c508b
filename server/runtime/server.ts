import { setMaxListeners } from 'node:events'
import { rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { dirname, join } from 'node:path'
import { compressionGzip, connectNodeAdapter } from '@connectrpc/connect-node'
import { outputAckPath } from '../../src/contract/runtimeExtensions'
import { Filesystem } from '../../src/gen/filesystem_pb'
import { Process } from '../../src/gen/process_pb'
import { closeWithAnswer } from '../http/closeWithAnswer'
import { longLivedServerOptions } from '../http/longLivedServerOptions'
import { settleUnreadBody } from '../http/settleUnreadBody'
import { sendEnvdError, tokensMatch, unauthorizedMessage } from './accessToken'
import type { RuntimeContext } from './context'
import { applyCors } from './cors'
import { filesHandler } from './files/filesHandler'
import { UploadJournal } from './files/uploadJournal'
import { filesystemService } from './filesystem/service'
import { sendStreamedListDirAnswers, streamedAnswerValues } from './filesystem/streamedAnswer'
import type { RuntimeOptions } from './options'
import { openPortTunnel } from './portTunnel'
import { processService } from './process/service'
import { startSudoServer } from './sudo/sudoServer'
import { userInterceptor } from './userInterceptor'
import { UserDirectory } from './users'

/** Largest RPC request body; a larger one is `resource_exhausted`, never buffered whole. */
const maxRpcBodyBytes = 8 * 1024 * 1024

/** A started runtime. */
export interface RunningRuntime {
  server: Server
  /** Base URL, e.g. http://127.0.0.1:49983 */
  url: string
  port: number
  /** Stops listening, ends every stream and kills every process it started. */
  close(): Promise<void>
}

/** Calls that need no access token (envd-api.md §2.1). */
function isTokenExempt(method: string | undefined, path: string): boolean {
  return (
    (method === 'GET' && path === '/health') || ((method === 'GET' || method === 'POST') && path === '/files')
  )
}

/** Builds the runtime's request handler: CORS, then the access token, then the routes. */
export function createRuntimeHandler(options: RuntimeOptions) {
  const rt: RuntimeContext = {
    options,
    users: new UserDirectory(options.defaultUser, options.home),
    ...(options.writesJournal ? { journal: new UploadJournal(options.writesJournal) } : {}),
  }
  const shutdown = new AbortController()
  // Every open stream listens for shutdown; dozens of terminals are normal, not a leak.
  setMaxListeners(0, shutdown.signal)
  const processes = processService(rt)
  const filesystem = filesystemService(rt)
  const rpc = connectNodeAdapter({
    routes: (router) => {
      router.service(Filesystem, filesystem.impl)
      router.service(Process, processes.impl)
      // A big listing leaves as it is read, not once it is whole (filesystem/streamedAnswer.ts).
      sendStreamedListDirAnswers(router)
    },
    contextValues: streamedAnswerValues,
    // The seed says request objects reject unknown fields; envd itself is laxer.
    jsonOptions: { ignoreUnknownFields: false },
    // gzip only, as envd (connect-go) offers: connect-node would also offer brotli, whose default
    // quality spends some 30 s of CPU on a listing of 100,000 entries for a client asking only for it.
    acceptCompression: [compressionGzip],
    readMaxBytes: maxRpcBodyBytes,
    interceptors: [userInterceptor(rt.users)],
    shutdownSignal: shutdown.signal,
  })
  const files = filesHandler(rt)
  /** The request carries the runtime's access token, or the runtime has none. */
  const hasToken = (req: IncomingMessage) => {
    const token = req.headers['x-access-token']
    return (
      options.accessToken === undefined ||
      tokensMatch(typeof token === 'string' ? token : undefined, options.accessToken)
    )
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    settleUnreadBody(req, res)
    if (applyCors(req, res)) return
    const url = new URL(req.url ?? '/', 'http://runtime')
    if (!isTokenExempt(req.method, url.pathname) && !hasToken(req)) {
      sendEnvdError(res, 401, unauthorizedMessage)
      return
    }
    if (url.pathname === '/health' && req.method === 'GET') {
      res.writeHead(204, { 'Cache-Control': 'no-store' }).end()
    } else if (url.pathname === outputAckPath) {
      processes.acked.handle(req, res, url).catch(() => res.destroy())
    } else if (url.pathname === '/files') {
      files(req, res, url).catch((err) => {
        if (!res.headersSent) sendEnvdError(res, 500, String(err))
        else res.destroy()
      })
    } else if (
      url.pathname.startsWith('/filesystem.Filesystem/') ||
      url.pathname.startsWith('/process.Process/')
    ) {
      rpc(req, res)
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' })
      res.end('404 page not found\n')
    }
  }

  /** CONNECT: a tunnel to one of the sandbox's ports, for callers with the token. */
  const tunnel = (req: IncomingMessage, socket: Socket, head: Buffer): void => {
    if (!hasToken(req)) {
      closeWithAnswer(socket, '401 Unauthorized')
      return
    }
    openPortTunnel(req, socket, head)
  }

  const dispose = () => {
    shutdown.abort()
    filesystem.dispose()
    processes.dispose()
  }
  /** Finishes the writes a killed runtime left half-done (before any call is served). */
  const recover = async () => (await rt.journal?.recover()) ?? []
  return { handle, tunnel, dispose, recover }
}

/** One listener of the runtime: a TCP port, or a Unix socket. */
function listen(
  runtime: ReturnType<typeof createRuntimeHandler>,
  at: { port: number; host: string } | { path: string },
): Promise<Server> {
  // No request timeout: StreamInput over HTTP/1.1 is one long request body. Idle as envd (640 s).
  const server = createServer(longLivedServerOptions, runtime.handle)
  server.on('connect', runtime.tunnel)
  return new Promise<Server>((resolve, reject) => {
    server.once('error', reject)
    if ('path' in at) server.listen(at.path, () => resolve(server))
    else server.listen(at.port, at.host, () => resolve(server))
  })
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

/** Starts a runtime listening on `options.host:options.port`, and on `options.socket` if given. */
export async function startRuntime(options: RuntimeOptions): Promise<RunningRuntime> {
  const sudo = options.sudoSocket
    ? await startSudoServer(options.sudoSocket, new UserDirectory(options.defaultUser, options.home), {
        node: process.execPath,
        script: join(dirname(process.argv[1] ?? '.'), 'sudo.mjs'),
        command: options.sudoCommand ?? '/usr/local/bin/sudo',
      })
    : undefined
  const runtime = createRuntimeHandler(options)
  await runtime.recover()
  const server = await listen(runtime, { port: options.port, host: options.host })
  let unixServer: Server | undefined
  if (options.socket) {
    rmSync(options.socket, { force: true })
    unixServer = await listen(runtime, { path: options.socket })
  }
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    close: async () => {
      runtime.dispose()
      sudo?.close()
      await Promise.all([closeServer(server), unixServer && closeServer(unixServer)])
    },
  }
}
