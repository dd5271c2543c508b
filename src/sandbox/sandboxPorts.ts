import { envdPort } from '../contract/runtimeExtensions'
import type { PortOwner } from './portOwners'
import type { SandboxFiles } from './sandboxFiles'

/** A TCP port a process in the sandbox listens on. */
export interface ListeningPort {
  port: number
  /** Listens on every address (0.0.0.0 or ::), not loopback only. */
  allAddresses: boolean
  /** The listening socket's inode (0 when the table has none): what finds its process. */
  inode: number
  /** The process that listens, once known (see portOwners). */
  owner?: PortOwner
}

/** A TCP socket in the LISTEN state, in /proc/net/tcp's `st` column. */
const listenState = '0A'

/**
 * The listening ports in /proc/net/tcp or tcp6 text: `local_address` is hex `ADDR:PORT`, an
 * address of all zeros is every address, and the tenth column is the socket's inode.
 */
export function parseListening(procNetTcp: string): ListeningPort[] {
  const ports: ListeningPort[] = []
  for (const line of procNetTcp.split('\n').slice(1)) {
    const [, local, , state, , , , , , inode] = line.trim().split(/\s+/)
    if (state !== listenState || !local) continue
    const [address = '', hexPort = ''] = local.split(':')
    const port = Number.parseInt(hexPort, 16)
    if (Number.isInteger(port) && port > 0)
      ports.push({ port, allAddresses: /^0+$/.test(address), inode: Number(inode) || 0 })
  }
  return ports
}

const decoder = new TextDecoder()

/**
 * The ports the sandbox's programs listen on, sorted, the runtime's own left out. Read from the
 * sandbox's /proc (its network is its own, so these are exactly its ports), IPv4 and IPv6 merged.
 */
export async function listeningPorts(files: Pick<SandboxFiles, 'read'>): Promise<ListeningPort[]> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((path) =>
      files.read(path).then(
        (bytes) => decoder.decode(bytes),
        () => '',
      ),
    ),
  )
  const byPort = new Map<number, ListeningPort>()
  for (const found of tables.flatMap(parseListening)) {
    if (found.port === envdPort) continue
    const known = byPort.get(found.port)
    byPort.set(found.port, {
      port: found.port,
      allAddresses: !!known?.allAddresses || found.allAddresses,
      inode: known?.inode || found.inode,
    })
  }
  return [...byPort.values()].sort((a, b) => a.port - b.port)
}

/**
 * The URL of `port` of the sandbox whose runtime is at `runtimeUrl`: E2B's addressing,
 * `{port}-{sandboxId}.{domain}`, the runtime being port 49983 (a shard label in front is dropped).
 */
export function portUrl(runtimeUrl: string, port: number, path = '/'): string | undefined {
  const runtime = new URL(runtimeUrl)
  const host = runtime.hostname.replace(/^s\d+\./, '')
  if (!host.startsWith(`${envdPort}-`)) return undefined
  const origin = `${runtime.protocol}//${port}-${host.slice(`${envdPort}-`.length)}${runtime.port ? `:${runtime.port}` : ''}`
  // Relative to the port's root whatever it looks like: never another origin.
  return new URL(`/${path.replace(/^\/+/, '')}`, origin).toString()
}

/** Host names that mean "this machine" to a program in the sandbox. */
const ownHosts = new Set(['localhost', '127.0.0.1', '0.0.0.0', '[::]', '[::1]'])

/**
 * The sandbox port and path a printed link means: `http://localhost:8000/x` (or 127.0.0.1,
 * 0.0.0.0) is the sandbox's port 8000 to a program in it; undefined for any other link.
 */
export function localPortLink(link: string): { port: number; path: string } | undefined {
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return undefined
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !ownHosts.has(url.hostname)) return undefined
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  return { port, path: `${url.pathname}${url.search}${url.hash}` }
}

/**
 * Where a link a program in the sandbox printed should go: a local link (see localPortLink) to
 * the sandbox's port, not the user's own machine; any other link is left as it is.
 */
export function sandboxLink(runtimeUrl: string, link: string): string {
  const local = localPortLink(link)
  return (local && portUrl(runtimeUrl, local.port, local.path)) ?? link
}
