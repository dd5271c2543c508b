import { statSync } from 'node:fs'
import type { ProcessConfig, StartRequest } from '../../../src/gen/process_pb'
import type { RuntimeContext } from '../context'
import { invalidArgument } from '../errors'
import { resolvePath } from '../paths'
import type { User } from '../users'
import type { SpawnSpec } from './spawnProcess'

const fallbackPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
/** TIOCSWINSZ holds an unsigned short per dimension. */
const maxTerminalCells = 65535

/** A terminal size from the request, or 80×24; zero or absurd sizes are `invalid_argument`. */
export function terminalSize(size: { cols: number; rows: number } | undefined): {
  cols: number
  rows: number
} {
  const cols = size?.cols || 80
  const rows = size?.rows || 24
  if (cols > maxTerminalCells || rows > maxTerminalCells) {
    throw invalidArgument(`pty size ${cols}x${rows} is out of range (at most ${maxTerminalCells})`)
  }
  return { cols, rows }
}

/**
 * What to spawn for a Start request, as envd builds it: PATH, the user's HOME, USER and LOGNAME,
 * the runtime's env vars, TERM for terminals, then the request's own envs; cwd resolved like a path.
 */
export function spawnSpec(
  config: ProcessConfig,
  req: StartRequest,
  user: User,
  rt: RuntimeContext,
): SpawnSpec {
  if (!config.cmd) throw invalidArgument('process.cmd is required')
  const cwd = resolvePath(config.cwd ?? '', user, rt.options.defaultWorkdir)
  let isDir = false
  try {
    isDir = statSync(cwd).isDirectory()
  } catch {}
  if (!isDir) throw invalidArgument(`cwd '${cwd}' does not exist`)
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? fallbackPath,
    HOME: user.home,
    USER: user.name,
    LOGNAME: user.name,
    ...rt.options.envVars,
    ...(req.pty ? { TERM: 'xterm-256color' } : {}),
    ...config.envs,
  }
  const switchUser = process.getuid?.() === 0 && user.uid !== 0
  return {
    cmd: config.cmd,
    args: config.args,
    env,
    cwd,
    ...(switchUser ? { uid: user.uid, gid: user.gid } : {}),
    ...(req.pty ? { pty: terminalSize(req.pty.size) } : {}),
    stdin: req.stdin ?? true,
  }
}
