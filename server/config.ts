import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

/** Everything the local platform (`npm start`) reads at start, from flags and environment. */
export interface PlatformConfig {
  port: number
  host: string
  /** Sandbox homes, records, the generated API key. */
  dataDir: string
  /** From --api-key or SANDBOX_API_KEY; otherwise generated on first start and kept in dataDir. */
  apiKey?: string
  maxSandboxes: number
  /** Timeout of a sandbox created through the API without one (seconds), as E2B's default. */
  sandboxTimeout: number
  /** Timeout of the IDE's default sandbox (seconds); it pauses, never dies, when it runs out. */
  defaultSandboxTimeout: number
  defaultSandbox: boolean
  isolation: 'auto' | 'none'
  /** Folder of template folders (`labs/` of the project when absent). */
  templatesDir?: string
  /**
   * Refuse the HTTP tunnel (src/contract/httpTunnel.ts), as a proxy that drops WebSockets would:
   * the IDE then calls runtimes by plain fetch, as it does on E2B.
   */
  noHttpTunnel?: boolean
  /** Serve HTTPS with HTTP/2 (and HTTP/1.1), with tlsFiles or a self-signed certificate kept in dataDir. */
  tls?: boolean
  /** The school's certificate and key (PEM files) instead of a self-signed one. */
  tlsFiles?: { cert: string; key: string }
  /**
   * A DNS name for this stack on a network: the IDE at `{domain}`, each sandbox's ports at
   * `{port}-{sandboxId}.{domain}` (a wildcard record pointing here), E2B's addressing.
   */
  domain?: string
  /** Origins whose pages may embed the IDE (/embed), besides the stack's own demo page. */
  embedOrigins?: string[]
  /** Of the embedding origins, those whose commands run without asking the user. */
  trustedOrigins?: string[]
  /** How often each sandbox's use is sampled for its metrics (5 s, as E2B; tests go faster). */
  metricsEveryMs?: number
  /** What each new sandbox may use; `defaultSandboxLimits` fills in what is not given. */
  sandboxLimits?: Partial<SandboxLimits>
}

/** What one sandbox may use, as E2B's cpuCount and memoryMB say, plus a bound on processes. */
export interface SandboxLimits {
  cpus: number
  memoryMB: number
  /** Most processes and threads at once: a fork bomb stops here, inside its own sandbox. */
  pids: number
  /** Size of its home's file system (see SandboxDisks); absent in records from before disks. */
  diskMB?: number
  /**
   * Its share of the CPU when the cores are contended, as cgroup v2's `cpu.weight` (100 is
   * everyone's; 10 yields to ten of them). Absent: 100. Lowered for work nobody waits on at a
   * keyboard (a grader), since `nice` inside a sandbox ranks only against that sandbox's own.
   */
  cpuWeight?: number
}

/**
 * E2B's default machine (2 vCPUs) where the host has room for it: never more than half the host's
 * cores, so one busy sandbox leaves the others a core (`npm run bench -- neighbour`: on 2 cores a
 * burner capped at both took quiet neighbours' echo p95 to 2.3-2.6x, at one to 1.45-1.6x). Room
 * for a dev server and a build; 1,024 processes; a 4 GiB home (sparse: the host gives it only
 * what it holds).
 */
export const defaultSandboxLimits: Required<Omit<SandboxLimits, 'cpuWeight'>> = {
  cpus: Math.min(2, Math.max(0.5, availableParallelism() / 2)),
  memoryMB: 2048,
  pids: 1024,
  diskMB: 4096,
}

export const platformUsage = `Usage: npm start -- [options]

Starts the local sandbox platform: an E2B-compatible API, isolated sandboxes, and the IDE.

Options:
  --port N                     port to listen on (default: $PORT or 8787)
  --host ADDR                  address to listen on (default 127.0.0.1; anything else exposes
                               the sandboxes to your network)
  --data DIR                   data folder: sandbox homes, records, the API key
                               (default: $SANDBOX_DATA_DIR or ./.data)
  --api-key KEY                platform API key (default: $SANDBOX_API_KEY, or one generated on
                               first start and kept in the data folder)
  --max-sandboxes N            most sandboxes that may exist at once (default 30)
  --sandbox-timeout S          timeout of sandboxes created without one, seconds (default 300)
  --default-sandbox-timeout S  timeout of the IDE's default sandbox, seconds; it pauses when it
                               runs out (default 3600)
  --templates DIR              folder of templates: each folder in it is a template named after
                               it, the files a new sandbox's home starts with (default ./labs)
  --sandbox-cpus N             CPUs' worth of time each sandbox may use (default 2, at most half
                               this machine's cores; 0.5 is half a CPU)
  --sandbox-memory MB          memory each sandbox may use; past it, the kernel kills a process
                               of that sandbox (default 2048)
  --sandbox-pids N             processes and threads each sandbox may have at once (default 1024)
  --sandbox-disk MB            size of each new sandbox's home file system (default 4096; needs root)
  --no-default-sandbox         do not create or resume a default sandbox
  --no-isolation               run sandboxes without bubblewrap (not isolated)
  --no-http-tunnel             refuse the IDE's WebSocket tunnel to runtimes, as a proxy that
                               drops WebSockets would (the IDE then calls them by fetch, as on E2B)
  --domain NAME                a DNS name of this machine for other machines: the IDE is served at
                               NAME and each sandbox at {port}-{sandboxId}.NAME, so NAME and
                               *.NAME must resolve here (a wildcard DNS record), as on E2B
  --tls-cert FILE              with --tls-key: serve HTTPS with this certificate (PEM) instead of
                               a self-signed one; it should cover NAME and *.NAME
  --tls-key FILE               the certificate's private key (PEM)
  --tls                        serve HTTPS with HTTP/2 (also $SANDBOX_TLS=1), with a self-signed
                               certificate for localhost made once into the data folder; lets
                               Chromium stream keystrokes (StreamInput)
  --embed-origin ORIGIN        a site whose pages may embed the IDE at /embed; repeatable
                               (also $SANDBOX_EMBED_ORIGINS, comma-separated)
  --trust-origin ORIGIN        an embedding site whose commands run without asking the user;
                               repeatable (also $SANDBOX_TRUSTED_ORIGINS)
  -h, --help                   show this help
`

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a positive whole number, not '${value}'`)
  return n
}

function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0.01 || n > 1024)
    throw new Error(`${name} must be a number from 0.01 to 1024, not '${value}'`)
  return n
}

/** Origins from repeated flags or a comma-separated variable; each must be exactly an origin. */
function origins(name: string, flags: string[] | undefined, variable: string | undefined): string[] {
  const list = flags ?? (variable ?? '').split(',')
  return list
    .map((o) => o.trim())
    .filter(Boolean)
    .map((origin) => {
      let parsed: URL | undefined
      try {
        parsed = new URL(origin)
      } catch {}
      if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin)
        throw new Error(`${name} takes an origin such as https://docs.example.com, not '${origin}'`)
      return origin
    })
}

/** Both PEM files, or neither. */
function tlsFilesOf(cert: string | undefined, key: string | undefined): PlatformConfig['tlsFiles'] {
  if (cert === undefined && key === undefined) return undefined
  if (cert === undefined || key === undefined)
    throw new Error('--tls-cert and --tls-key go together: the certificate and its private key')
  return { cert: resolve(cert), key: resolve(key) }
}

const dnsLabel = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'
const dnsName = new RegExp(`^${dnsLabel}(?:\\.${dnsLabel})+$`)

/**
 * A domain the stack's sandboxes get names under: a DNS name of two labels or more, not a
 * loopback name (those are always served) and not an IP address (which has no names under it).
 */
export function domainName(value: string): string {
  const name = value.trim().toLowerCase().replace(/\.$/, '')
  if (!dnsName.test(name) || name.length > 200 || /^[\d.]+$/.test(name) || /(^|\.)localhost$/.test(name))
    throw new Error(
      `--domain takes a DNS name of this machine such as class.example.org (not an IP address or localhost), not '${value}'`,
    )
  return name
}

/** Reads the platform's configuration; throws a readable message on bad input. */
export function parsePlatformConfig(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): PlatformConfig | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      'api-key': { type: 'string' },
      'max-sandboxes': { type: 'string' },
      'sandbox-timeout': { type: 'string' },
      'default-sandbox-timeout': { type: 'string' },
      templates: { type: 'string' },
      'sandbox-cpus': { type: 'string' },
      'sandbox-memory': { type: 'string' },
      'sandbox-pids': { type: 'string' },
      'sandbox-disk': { type: 'string' },
      'no-default-sandbox': { type: 'boolean' },
      'no-isolation': { type: 'boolean' },
      'no-http-tunnel': { type: 'boolean' },
      tls: { type: 'boolean' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      domain: { type: 'string' },
      'embed-origin': { type: 'string', multiple: true },
      'trust-origin': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) return 'help'
  const port = Number(values.port ?? env.PORT ?? 8787)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535, not '${values.port ?? env.PORT}'`)
  const apiKey = values['api-key'] ?? env.SANDBOX_API_KEY
  const tlsFiles = tlsFilesOf(values['tls-cert'], values['tls-key'])
  return {
    port,
    host: values.host ?? '127.0.0.1',
    dataDir: resolve(values.data ?? env.SANDBOX_DATA_DIR ?? '.data'),
    ...(apiKey ? { apiKey } : {}),
    maxSandboxes: positiveInt('--max-sandboxes', values['max-sandboxes'], 30),
    sandboxTimeout: positiveInt('--sandbox-timeout', values['sandbox-timeout'], 300),
    defaultSandboxTimeout: positiveInt('--default-sandbox-timeout', values['default-sandbox-timeout'], 3600),
    ...(values.templates ? { templatesDir: resolve(values.templates) } : {}),
    sandboxLimits: {
      cpus: positiveNumber('--sandbox-cpus', values['sandbox-cpus'], defaultSandboxLimits.cpus),
      memoryMB: positiveInt('--sandbox-memory', values['sandbox-memory'], defaultSandboxLimits.memoryMB),
      pids: positiveInt('--sandbox-pids', values['sandbox-pids'], defaultSandboxLimits.pids),
      diskMB: positiveInt('--sandbox-disk', values['sandbox-disk'], defaultSandboxLimits.diskMB),
    },
    defaultSandbox: !values['no-default-sandbox'],
    isolation: values['no-isolation'] ? 'none' : 'auto',
    ...(values['no-http-tunnel'] ? { noHttpTunnel: true } : {}),
    tls: values.tls === true || env.SANDBOX_TLS === '1' || tlsFiles !== undefined,
    ...(tlsFiles ? { tlsFiles } : {}),
    ...(values.domain !== undefined ? { domain: domainName(values.domain) } : {}),
    embedOrigins: origins('--embed-origin', values['embed-origin'], env.SANDBOX_EMBED_ORIGINS),
    trustedOrigins: origins('--trust-origin', values['trust-origin'], env.SANDBOX_TRUSTED_ORIGINS),
  }
}
