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

const keptOutput = 8 * 1024

/**
 * Runs commands in a sandbox the way any client of its runtime does (process.Process/Start, as
 * `user`, with the sandbox's token), for what the platform does on a teacher's behalf: a lab's
 * check, its reset. Over the runtime's Unix socket when the sandbox has a network of its own.
 */
export function sandboxCommands(runtime: RuntimeEndpoint): {
  run(
    cmd: string,
    args: string[],
    options: { cwd?: string; timeoutMs: number; tag: string },
  ): Promise<CommandOutcome>
} {
  const token: Interceptor = (next) => (req) => {
    req.header.set('X-Access-Token', runtime.accessToken)
    return next(req)
  }
  const client: Client<typeof Process> = createClient(
    Process,
    createConnectTransport({
      baseUrl: runtime.socketPath ? 'http://sandbox' : `http://127.0.0.1:${runtime.port}`,
      httpVersion: '1.1',
      ...(runtime.socketPath ? { nodeOptions: { socketPath: runtime.socketPath } } : {}),
      interceptors: [token],
    }),
  )
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
