import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { envdPort } from '../../src/contract/runtimeExtensions'
import { breakOffResponse } from '../http/breakOffResponse'
import { closeWithAnswer } from '../http/closeWithAnswer'
import type { GuardVerdict } from './access/guestCalls'
import { forwardable } from './forwardable'
import { httpTunnel, type OwnAnswer, wantsHttpTunnel } from './httpTunnel'
import type { RuntimeEndpoint, SandboxManager } from './sandboxManager'
import { type Reach, reachSandbox, whyUnreachable } from './sandboxReach'
import { connectToPort, PortClosed, requestHead, runtimeAgent, sandboxRequest } from './sandboxUpstream'

/** Which sandbox and port a request is for. */
export interface SandboxTarget {
  sandboxId: string
  port: number
}

/** Connection-shard labels `s1.` to `s64.` in front of a sandbox host. */
const shardLabel = /^s([1-9]|[1-5]\d|6[0-4])$/

/** Escapes a name for use inside a regular expression. */
const literal = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Finds the sandbox a request addresses: by host name `{port}-{sandboxID}.localhost` (every
 * browser resolves `*.localhost` to loopback) or `{port}-{sandboxID}.{domain}` with `--domain`
 * (a wildcard DNS name, E2B's addressing), or by the `E2b-Sandbox-Id` / `E2b-Sandbox-Port`
 * headers on the platform's own host, as the e2b SDK sends them when `E2B_SANDBOX_URL` is set.
 * A shard label in front, `s{N}.{port}-{sandboxID}.localhost`, routes the same: browsers allow
 * six HTTP/1.1 connections per host name and every open stream holds one, so the IDE spreads
 * its long-lived streams over several names.
 * A page opened by a bare address (no names to give sandboxes) reaches a runtime on the
 * platform's own origin instead, at `/.sandbox/{sandboxID}/…`: the finder then takes the prefix
 * off `req.url`, so the runtime sees envd's own paths.
 * The finder answers undefined when the request is for the platform itself.
 */
export function sandboxTargets(domain?: string): (req: IncomingMessage) => SandboxTarget | undefined {
  const suffix = domain ? `(?:localhost|${literal(domain)})` : 'localhost'
  const sandboxHost = new RegExp(`^(?:([^.]*)\\.)?(\\d{1,5})-(.+)\\.${suffix}$`)
  return (req) => {
    const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '')
    // Anything shaped like a sandbox host is one; a malformed id then gets the router's 502.
    const byHost = host.match(sandboxHost)
    if (byHost) {
      const [, label, port, id] = byHost
      // An unknown label names no sandbox; it must not fall through to the IDE's pages.
      const sandboxId =
        label === undefined || shardLabel.test(label) ? (id as string) : `${label}.${port}-${id}`
      return { port: Number(port), sandboxId }
    }
    const byPath = runtimePath.exec(req.url ?? '')
    if (byPath) {
      // The runtime sees the path it would on its own host name.
      req.url = `/${byPath[2] ?? ''}`
      return { sandboxId: byPath[1] as string, port: envdPort }
    }
    const id = req.headers['e2b-sandbox-id']
    if (typeof id !== 'string') return undefined
    const port = Number(req.headers['e2b-sandbox-port'] ?? envdPort)
    return { sandboxId: id, port: Number.isInteger(port) ? port : -1 }
  }
}

/** The prefix of a sandbox's runtime on the platform's own host: `/.sandbox/{id}/…`. */
export const runtimePathPrefix = '/.sandbox/'
const runtimePath = /^\/\.sandbox\/([^/?#]+)\/?(.*)$/s

/** Why a port of a running sandbox could not be reached: nothing listens, or the sandbox is silent. */
function whyNotReached(sandboxId: string, port: number, err: Error) {
  return err instanceof PortClosed
    ? whyUnreachable(sandboxId, 'running', port)
    : { sandboxId, message: `The sandbox is not answering (${err.message})` }
}

/** E2B's error body at the edge: why, plus the code (502 unless said). */
const errorBody = (why: Record<string, unknown>, code = 502) => JSON.stringify({ ...why, code })

/** The status line of the edge's own answers on a raw connection. */
const statusLines: Record<number, string> = {
  403: '403 Forbidden',
  409: '409 Conflict',
  502: '502 Bad Gateway',
}

/** Answers an upgrade the router cannot carry with E2B's error body, and closes it. */
function refuseUpgrade(client: Duplex, why: Record<string, unknown>, status = 502): void {
  const line = statusLines[status] ?? `${status} Error`
  closeWithAnswer(client, line, errorBody(why, status), 'application/json; charset=utf-8')
}

/** A request's X-Access-Token, the sandbox's token it may carry (in whatever case it was named). */
function accessTokenOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'x-access-token')
  const value = name === undefined ? undefined : headers[name]
  return typeof value === 'string' ? value : undefined
}

/**
 * Forwards sandbox traffic to the sandbox's runtime, streaming both ways without buffering.
 * A sandbox that is unknown, killed or paused gets E2B's 502 body, with CORS headers so a
 * browser can read why (E2B's own edge leaves them out); one paused and made to resume on
 * traffic is resumed for the request first (see sandboxReach.ts).
 */
export function sandboxRouter(
  manager: SandboxManager,
  {
    httpTunnel: tunnelled = true,
    resumeWaitMs,
    guard,
  }: {
    httpTunnel?: boolean
    resumeWaitMs?: number
    /**
     * Looks at each call to a runtime first (guests' calls: see GuestCalls): refuses it, or
     * forwards it with other headers and holds it so it can be ended; undefined, as it came.
     */
    guard?: (
      sandboxId: string,
      method: string | undefined,
      url: string | undefined,
      headers: IncomingMessage['headers'],
    ) => GuardVerdict | undefined
  } = {},
) {
  const agent = runtimeAgent()
  const tunnel = httpTunnel()
  /** Calls in flight per sandbox, each with a way to break it off. */
  const inFlight = new Map<string, Set<() => void>>()
  // A paused or killed sandbox breaks its calls at once (a stream would otherwise wait on a
  // frozen runtime): the client sees the connection end and asks /health, which answers 502.
  manager.onStop((id) => {
    for (const breakOff of inFlight.get(id) ?? []) breakOff()
  })
  /** When a client last called each sandbox (a keystroke, a save, a page of a port). */
  const lastSeen = new Map<string, number>()
  manager.onStop((id) => {
    if (!manager.has(id)) lastSeen.delete(id)
  })
  const track = (sandboxId: string, breakOff: () => void) => {
    lastSeen.set(sandboxId, Date.now())
    const calls = inFlight.get(sandboxId) ?? new Set<() => void>()
    inFlight.set(sandboxId, calls)
    calls.add(breakOff)
    return () => {
      calls.delete(breakOff)
      if (calls.size === 0 && inFlight.get(sandboxId) === calls) inFlight.delete(sandboxId)
    }
  }

  const unreachable = (
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, unknown>,
    status = 502,
  ) => {
    res.setHeader('Access-Control-Allow-Origin', '*')
    res.setHeader('Vary', 'Origin')
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method']
    if (preflight) {
      // Let the real request through the preflight, so the browser gets to read the 502.
      const requested = req.headers['access-control-request-headers']
      if (requested) res.setHeader('Access-Control-Allow-Headers', requested)
      res.setHeader('Access-Control-Allow-Methods', String(req.headers['access-control-request-method']))
      res.writeHead(204).end()
      return
    }
    const text = errorBody(body, status)
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
    })
    res.end(text)
  }

  /** The way to the sandbox for a request that may carry its token (resuming it if it may). */
  const reach = (target: SandboxTarget, accessToken: string | undefined): Promise<Reach> =>
    reachSandbox(
      manager,
      target,
      accessToken,
      resumeWaitMs === undefined ? {} : { waitMs: resumeWaitMs },
    ).catch(
      (err: unknown): Reach => ({
        kind: 'refused',
        status: 502,
        why: { sandboxId: target.sandboxId, message: `The sandbox is not answering (${String(err)})` },
      }),
    )

  const forward = (
    req: IncomingMessage,
    res: ServerResponse,
    target: SandboxTarget,
    upstream: ClientRequest,
    hold?: (breakOff: () => void) => () => void,
  ) => {
    const { sandboxId } = target
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers))
      answer.pipe(res)
      // A runtime that dies mid-answer (killed, out of memory) ends no pipe: without this the
      // client's stream (a terminal, a watch) would wait forever for bytes that never come.
      answer.on('close', () => {
        if (!answer.complete) breakOffResponse(res)
      })
    })
    upstream.on('error', (err) => {
      if (!res.headersSent) {
        unreachable(req, res, {
          sandboxId,
          message: `The sandbox is not answering (${(err as NodeJS.ErrnoException).code ?? err.message})`,
        })
      } else {
        breakOffResponse(res)
      }
    })
    const breakOff = () => {
      upstream.destroy()
      breakOffResponse(res)
    }
    const untrack = track(sandboxId, breakOff)
    const release = hold?.(breakOff)
    // A client that goes away takes its upstream call with it (the runtime keeps the process).
    res.on('close', () => {
      untrack()
      release?.()
      if (!res.writableFinished) upstream.destroy()
    })
    // An answer before the whole body went up (a runtime's 401): the rest is not forwarded
    // (settleUnreadBody reads it from the client), so the half-sent upstream call is dropped.
    res.on('finish', () => {
      if (!req.complete) upstream.destroy()
    })
    req.pipe(upstream)
  }

  /** An HTTP request for a sandbox: to its runtime (envd's port), or to any port it listens on. */
  const handle = (req: IncomingMessage, res: ServerResponse, target: SandboxTarget): void => {
    const { sandboxId, port } = target
    const verdict = port === envdPort ? guard?.(sandboxId, req.method, req.url, req.headers) : undefined
    if (verdict?.kind === 'refuse') {
      const { status, headers, body } = verdict.answer
      res.writeHead(status, { ...headers, 'content-length': body.length }).end(body)
      return
    }
    const sent = verdict?.headers ?? req.headers
    // A client that leaves while its sandbox resumes is not forwarded afterwards.
    let gone = false
    res.once('close', () => {
      gone = true
    })
    void reach(target, accessTokenOf(sent)).then((way) => {
      if (way.kind === 'refused') return unreachable(req, res, way.why, way.status)
      if (gone) return
      const toRuntime = port === envdPort
      const headers = toRuntime
        ? { ...forwardable(sent), host: `127.0.0.1:${way.runtime.port}` }
        : // An app gets the host name it was reached by (dev servers check it), as on E2B.
          forwardable(req.headers)
      sandboxRequest(agent, way.runtime, port, { method: req.method, path: req.url, headers }).then(
        (upstream) => forward(req, res, target, upstream, verdict?.hold),
        (err: Error) => unreachable(req, res, whyNotReached(sandboxId, port, err)),
      )
    })
  }

  /** E2B's error at the edge (502 unless said), as the tunnel hands it to its client. */
  const ownError = (why: Record<string, unknown>, status = 502): OwnAnswer => ({
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: errorBody(why, status),
  })

  /**
   * A call to a sandbox's runtime over the HTTP tunnel (src/contract/httpTunnel.ts): the same
   * request the router would forward, made when the head arrives, with the same 502s.
   */
  const tunnelCall = (req: IncomingMessage, client: Duplex, head: Buffer, sandboxId: string): void => {
    let breakThis: (() => void) | undefined
    let closedThis: Promise<void> | undefined
    tunnel.accept(req, client, head, {
      open: async (call) => {
        const verdict = guard?.(sandboxId, call.method, req.url, call.headers)
        if (verdict?.kind === 'refuse') throw verdict.answer
        const sent = verdict?.headers ?? call.headers
        if (verdict && breakThis) void closedThis?.then(verdict.hold(breakThis))
        const way = await reach({ sandboxId, port: envdPort }, accessTokenOf(sent))
        if (way.kind === 'refused') throw ownError(way.why, way.status)
        const headers = { ...forwardable(sent), host: `127.0.0.1:${way.runtime.port}` }
        return sandboxRequest(agent, way.runtime, envdPort, {
          method: call.method,
          path: req.url,
          headers,
        }).catch((err: Error) => Promise.reject(ownError(whyNotReached(sandboxId, envdPort, err))))
      },
      notAnswering: (err) =>
        ownError({ sandboxId, message: `The sandbox is not answering (${err.code ?? err.message})` }),
      opened: (breakOff, closed) => {
        breakThis = breakOff
        closedThis = closed
        void closed.then(track(sandboxId, breakOff))
      },
    })
  }

  /**
   * An upgrade (a WebSocket) to a sandbox's port: the request goes on as bytes, and the two
   * sides are joined until either ends; a pause or kill breaks it off like any call.
   */
  const upgrade = (req: IncomingMessage, client: Duplex, head: Buffer, target: SandboxTarget): void => {
    const { sandboxId, port } = target
    client.on('error', () => {})
    if (port === envdPort && wantsHttpTunnel(req)) {
      if (tunnelled) tunnelCall(req, client, head, sandboxId)
      else closeWithAnswer(client, '404 Not Found', 'This stack has no HTTP tunnel (--no-http-tunnel).')
      return
    }
    void reach(target, accessTokenOf(req.headers)).then((way) => {
      if (way.kind === 'refused') return refuseUpgrade(client, way.why, way.status)
      if (client.destroyed) return
      joinUpgrade(req, client, head, target, way.runtime)
    })
  }

  /** Joins an upgraded client to the sandbox's port, until either ends. */
  const joinUpgrade = (
    req: IncomingMessage,
    client: Duplex,
    head: Buffer,
    target: SandboxTarget,
    runtime: RuntimeEndpoint,
  ) => {
    const { sandboxId, port } = target
    connectToPort(runtime, port === envdPort ? runtime.port : port).then(
      (upstream) => {
        const untrack = track(sandboxId, () => {
          upstream.destroy()
          client.destroy()
        })
        upstream.on('error', () => client.destroy())
        upstream.on('close', () => {
          untrack()
          client.destroy()
        })
        client.on('close', () => upstream.destroy())
        upstream.write(requestHead(req))
        if (head.length > 0) upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      },
      (err: Error) => refuseUpgrade(client, whyNotReached(sandboxId, port, err)),
    )
  }

  /**
   * Breaks off every call in flight: the platform is closing. An upgraded socket (a tunnel, an
   * app's WebSocket) is no longer the HTTP server's to close, and would keep it open.
   */
  const breakAll = () => {
    for (const calls of [...inFlight.values()]) for (const breakOff of [...calls]) breakOff()
  }

  return { handle, upgrade, breakAll, lastActivity: (sandboxId: string) => lastSeen.get(sandboxId) }
}
