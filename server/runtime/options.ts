import { userInfo } from 'node:os'
import { parseArgs } from 'node:util'
import { envdPort } from '../../src/contract/runtimeExtensions'

/** How one runtime is configured: everything it reads at start, nothing read later. */
export interface RuntimeOptions {
  /** TCP port; 0 picks a free one. */
  port: number
  /** Interface to listen on. Loopback unless asked otherwise. */
  host: string
  /** Also listen on this Unix socket (how the platform reaches a runtime in its own network). */
  socket?: string
  /**
   * Serve `sudo` for the sandbox's processes on this Unix socket (the runtime must be root in the
   * sandbox), with the `sudo` command written to `sudoCommand`.
   */
  sudoSocket?: string
  sudoCommand?: string
  /** A file whose `oom_kill N` line counts the sandbox's out-of-memory kills (its memory cgroup's). */
  oomEvents?: string
  /**
   * A folder of the runtime's own, kept with the sandbox and outside what users watch, where
   * in-place writes are written down while they run, so a kill loses nothing (uploadJournal.ts).
   */
  writesJournal?: string
  /** When set, every call but /health and /files must carry it as X-Access-Token (as envd). */
  accessToken?: string
  /** The user that calls without a Basic username run as. */
  defaultUser: string
  /** Overrides the default user's home directory (the sandbox's /home/user on a host). */
  home?: string
  /** What an empty path means; the user's home when unset. */
  defaultWorkdir?: string
  /** Extra environment for every process (envd's /init envVars). */
  envVars: Record<string, string>
}

export const usage = `Usage: npm run runtime -- [options]

An envd-compatible sandbox runtime: filesystem.Filesystem, process.Process, /files, /health.

Options:
  --port N              port to listen on (default 49983; 0 picks a free port)
  --host ADDR           address to listen on (default 127.0.0.1)
  --socket PATH         also listen on this Unix socket
  --sudo-socket PATH    serve \`sudo\` for the sandbox's processes there (the runtime must be root)
  --sudo-command PATH   where to write the \`sudo\` command (default /usr/local/bin/sudo)
  --oom-events PATH     the sandbox's memory cgroup events (oom_kill N): an OOM-killed process
                        is reported as out of memory
  --writes-journal DIR  write in-place writes down here while they run, and finish those a
                        kill cut short at the next start (a folder kept with the sandbox)
  --access-token T      require X-Access-Token T on every call (default: no auth, as envd);
                        also read from RUNTIME_ACCESS_TOKEN; '-' reads it from stdin (one line),
                        which keeps it out of the process list and the environment
  --env-vars JSON       environment for every process, as a JSON object of strings; '-' reads
                        it from stdin (one line, after the token's line when both come from stdin)
  --user NAME           default user (default: the user running the runtime)
  --home DIR            the default user's home directory (default: from /etc/passwd)
  --workdir DIR         what an empty path means (default: the user's home)
  -h, --help            show this help
`

/** Gives the next line of stdin (without its newline); rejects when stdin has ended. */
export type StdinLineReader = () => Promise<string>

const noStdin: StdinLineReader = () => Promise.reject(new Error('stdin is not available'))

function parseEnvVars(json: string): Record<string, string> {
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    throw new Error('--env-vars must be a JSON object')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('--env-vars must be a JSON object')
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new Error(`--env-vars: '${key}' must be a string`)
  }
  return parsed as Record<string, string>
}

/**
 * Parses command-line arguments into options; throws with a readable message on bad input.
 * `readLine` supplies stdin for the values given as '-': the token first, then the env vars.
 */
export async function parseRuntimeArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  readLine: StdinLineReader = noStdin,
): Promise<RuntimeOptions | 'help'> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      socket: { type: 'string' },
      'sudo-socket': { type: 'string' },
      'sudo-command': { type: 'string' },
      'oom-events': { type: 'string' },
      'writes-journal': { type: 'string' },
      'access-token': { type: 'string' },
      'env-vars': { type: 'string' },
      user: { type: 'string' },
      home: { type: 'string' },
      workdir: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) return 'help'
  const port = Number(values.port ?? envdPort)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535, not '${values.port}'`)
  let accessToken = values['access-token'] ?? env.RUNTIME_ACCESS_TOKEN
  if (accessToken === '-') {
    accessToken = (await readLine()).trim()
    if (!accessToken) throw new Error('--access-token -: stdin gave an empty line')
  }
  const envVarsArg = values['env-vars']
  const envVars =
    envVarsArg === undefined ? {} : parseEnvVars(envVarsArg === '-' ? await readLine() : envVarsArg)
  return {
    port,
    host: values.host ?? '127.0.0.1',
    ...(values.socket ? { socket: values.socket } : {}),
    ...(values['sudo-socket'] ? { sudoSocket: values['sudo-socket'] } : {}),
    ...(values['sudo-command'] ? { sudoCommand: values['sudo-command'] } : {}),
    ...(values['oom-events'] ? { oomEvents: values['oom-events'] } : {}),
    ...(values['writes-journal'] ? { writesJournal: values['writes-journal'] } : {}),
    ...(accessToken ? { accessToken } : {}),
    defaultUser: values.user ?? userInfo().username,
    ...(values.home ? { home: values.home } : {}),
    ...(values.workdir ? { defaultWorkdir: values.workdir } : {}),
    envVars,
  }
}
