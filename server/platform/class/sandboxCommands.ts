import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { type Client, Code, ConnectError, createClient, type Interceptor } from '@connectrpc/connect'
import { createConnectTransport } from '@connectrpc/connect-node'
import { Process } from '../../../src/gen/process_pb'
import type { RuntimeEndpoint } from '../sandboxManager'

/** How a command the platform ran in a sandbox went. */
export interface CommandOutcome {
  exitCode: number
  /** The runtime's words: "exit status 1", "signal: killed". */
  status: string
  /** stdout and stderr as they came, the last 8 KiB. */
  output: string
}

/** Runs one command in a sandbox and waits for its end. */
export interface SandboxCommands {
  run(
    cmd: string,
    args: string[],
    options: { cwd?: string; timeoutMs: number; tag: string },
  ): Promise<CommandOutcome>
}

/**
 * Where a sandbox's runtime answers: a local sandbox's port (or Unix socket), or an E2B
 * sandbox's runtime URL (`https://49983-{id}.{domain}`), with the token it wants.
 */
export type RuntimeAddress = RuntimeEndpoint | { runtimeUrl: string; accessToken: string | null }

const keptOutput = 8 * 1024

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/**
 * Resolves `*.localhost` to loopback, as browsers do (RFC 6761), and any other name as usual:
 * a platform on this machine playing E2B names its sandboxes `49983-{id}.localhost`, which the
 * C library does not resolve.
 */
export function lookupWithLocalhost(
  hostname: string,
  options: LookupOptions,
  callback: LookupCallback,
): void {
  if (!/(^|\.)localhost\.?$/i.test(hostname)) {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err || options.all) callback(err, addresses ?? [])
      else callback(null, addresses[0]?.address ?? '', addresses[0]?.family)
    })
    return
  }
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }])
  else callback(null, '127.0.0.1', 4)
}

/** A Connect transport to a sandbox's runtime, local or on E2B, each call carrying the sandbox's token. */
export function transportFor(runtime: RuntimeAddress) {
  const { accessToken } = runtime
  const token: Interceptor = (next) => (req) => {
    if (accessToken) req.header.set('X-Access-Token', accessToken)
    return next(req)
  }
  const interceptors = [token]
  if ('runtimeUrl' in runtime)
    return createConnectTransport({
      baseUrl: runtime.runtimeUrl,
      httpVersion: '1.1',
      nodeOptions: { lookup: lookupWithLocalhost },
      interceptors,
    })
  return createConnectTransport({
    baseUrl: runtime.socketPath ? 'http://sandbox' : `http://127.0.0.1:${runtime.port}`,
    httpVersion: '1.1',
    ...(runtime.socketPath ? { nodeOptions: { socketPath: runtime.socketPath } } : {}),
    interceptors,
  })
}

/**
 * Runs commands in a sandbox the way any client of its runtime does (process.Process/Start, as
 * `user`, with the sandbox's token), for what the platform does on a teacher's behalf: a lab's
 * check, its reset. Over the runtime's Unix socket when a local sandbox has a network of its
 * own; over HTTPS to E2B's sandbox domain for a sandbox on E2B.
 */
export function sandboxCommands(runtime: RuntimeAddress): SandboxCommands {
  const client: Client<typeof Process> = createClient(Process, transportFor(runtime))
  return {
    async run(cmd, args, { cwd, timeoutMs, tag }) {
      let output = ''
      const decoder = new TextDecoder()
      const events = client.start(
        { process: { cmd, args, envs: {}, ...(cwd ? { cwd } : {}) }, tag, stdin: false },
        { timeoutMs },
      )
      try {
        for await (const { event } of events) {
          if (event?.event.case === 'data') {
            const { output: chunk } = event.event.value
            if (chunk.case === 'stdout' || chunk.case === 'stderr') {
              output = (output + decoder.decode(chunk.value, { stream: true })).slice(-keptOutput)
            }
          } else if (event?.event.case === 'end') {
            const end = event.event.value
            return { exitCode: end.exitCode, status: end.status, output }
          }
        }
      } catch (err) {
        // Its time ran out: the runtime killed it (envd's Connect-Timeout-Ms).
        if (ConnectError.from(err).code === Code.DeadlineExceeded)
          return { exitCode: -1, status: `timed out after ${timeoutMs / 1000} s`, output }
        throw err
      }
      throw new Error('the runtime ended the command without saying how it ended')
    },
  }
}
