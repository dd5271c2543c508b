import type { LaunchSpec } from './sandboxLauncher'

/** The runtime's environment: enough to run, and nothing of the platform's (it may hold keys). */
export const runtimeEnvironment = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  LANG: 'C.UTF-8',
}

/** Where a sandbox's runtime writes down in-place writes: its own system's /var/cache, kept with it. */
export const sandboxWritesJournal = '/var/cache/sandbox-runtime/writes'

/**
 * Runtime flags for one sandbox; the token and env vars come on stdin, never in argv. Without
 * a network of its own, a runtime takes any free port; with one, envd's own port and a socket.
 */
export function runtimeFlags(
  user: string,
  home: string,
  listen: {
    port: number
    socket?: string
    oomEvents?: string
    sudoSocket?: string
    writesJournal?: string
  } = {
    port: 0,
  },
): string[] {
  return [
    '--port',
    String(listen.port),
    ...(listen.socket ? ['--socket', listen.socket] : []),
    ...(listen.oomEvents ? ['--oom-events', listen.oomEvents] : []),
    ...(listen.writesJournal ? ['--writes-journal', listen.writesJournal] : []),
    ...(listen.sudoSocket ? ['--sudo-socket', listen.sudoSocket] : []),
    '--host',
    '127.0.0.1',
    '--user',
    user,
    '--home',
    home,
    '--access-token',
    '-',
    '--env-vars',
    '-',
  ]
}

/** What the launcher writes to the runtime's stdin for `runtimeFlags`: token line, env vars line. */
export function runtimeStdin(spec: Pick<LaunchSpec, 'accessToken' | 'envVars'>): string {
  if (!spec.accessToken || /[\r\n]/.test(spec.accessToken))
    throw new Error('the access token must be one non-empty line')
  return `${spec.accessToken}\n${JSON.stringify(spec.envVars)}\n`
}
