// Tests talk to a sandbox's runtime over plain fetch and loopback URLs; a sandbox with a network
// of its own is reached through its runtime's Unix socket instead. This joins the two: a TCP
// port on the host's loopback whose every connection is piped to the socket, byte for byte.
import { connect, createServer, type Server } from 'node:net'
import type { RuntimeEndpoint } from '../sandboxManager'

const bridges = new Map<string, Promise<number>>()
const servers: Server[] = []

/** A loopback port that reaches the runtime: its own, or a bridge to its socket. */
export function runtimePort(runtime: Pick<RuntimeEndpoint, 'port' | 'socketPath'>): Promise<number> {
  const { socketPath } = runtime
  if (!socketPath) return Promise.resolve(runtime.port)
  let port = bridges.get(socketPath)
  if (!port) {
    port = new Promise<number>((resolve, reject) => {
      const server = createServer((client) => {
        const upstream = connect(socketPath)
        client.pipe(upstream).pipe(client)
        const end = () => {
          client.destroy()
          upstream.destroy()
        }
        client.on('error', end).on('close', end)
        upstream.on('error', end).on('close', end)
      })
      server.unref()
      servers.push(server)
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const address = server.address()
        resolve(typeof address === 'object' && address ? address.port : 0)
      })
    })
    bridges.set(socketPath, port)
  }
  return port
}
