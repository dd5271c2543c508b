import { Agent, type ClientRequest, type IncomingMessage, type RequestOptions, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { envdPort } from '../../src/contract/runtimeExtensions'
import type { RuntimeEndpoint } from './sandboxManager'

/** Why a sandbox's port could not be reached: nothing listens there. */
export class PortClosed extends Error {}

/**
 * Opens a byte stream to `port` inside a sandbox: through its runtime's `CONNECT` tunnel when the
 * sandbox has a network of its own (the host cannot reach in otherwise), straight to the host's
 * loopback when it shares the host's. Rejects with PortClosed when nothing listens there.
 */
export function connectToPort(runtime: RuntimeEndpoint, port: number): Promise<Socket> {
  if (!runtime.socketPath) {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port })
      socket.once('connect', () => resolve(socket))
      socket.once('error', (err: NodeJS.ErrnoException) =>
        reject(err.code === 'ECONNREFUSED' ? new PortClosed(err.message) : err),
      )
    })
  }
  return new Promise((resolve, reject) => {
    const tunnel = request({
      socketPath: runtime.socketPath,
      method: 'CONNECT',
      path: `127.0.0.1:${port}`,
      headers: { 'X-Access-Token': runtime.accessToken },
      agent: false,
    })
    tunnel.once('connect', (answer, socket, head) => {
      if (answer.statusCode !== 200) {
        socket.destroy()
        reject(
          answer.statusCode === 502
            ? new PortClosed(`port ${port} is not open`)
            : new Error(`tunnel: ${answer.statusCode}`),
        )
        return
      }
      if (head.length > 0) socket.unshift(head)
      resolve(socket)
    })
    tunnel.once('error', reject)
    tunnel.end()
  })
}

/**
 * Sends one HTTP request to a sandbox's port. The runtime's own port goes over a pooled
 * keep-alive connection (its Unix socket, or its loopback port); any other port over a fresh
 * stream from connectToPort, as a preview's traffic is light beside a terminal's.
 */
export function sandboxRequest(
  agent: Agent,
  runtime: RuntimeEndpoint,
  port: number,
  options: RequestOptions,
): Promise<ClientRequest> {
  if (port === envdPort) {
    const at = runtime.socketPath
      ? { socketPath: runtime.socketPath }
      : { host: '127.0.0.1', port: runtime.port }
    return Promise.resolve(request({ ...options, ...at, agent }))
  }
  return connectToPort(runtime, port).then((socket) =>
    request({ ...options, createConnection: () => socket }),
  )
}

/** The head of `req` again, as it came (for an upgrade, which is forwarded as bytes). */
export function requestHead(req: IncomingMessage): string {
  let head = `${req.method} ${req.url} HTTP/1.1\r\n`
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    head += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`
  return `${head}\r\n`
}

export function runtimeAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
}
