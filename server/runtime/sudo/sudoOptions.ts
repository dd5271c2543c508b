// What a `sudo` command line asks for, as far as a sandbox with passwordless root needs it:
// pure functions, so the command (sudoCli.ts) only does I/O.

export const sudoUsage = `usage: sudo [-nEHis] [-u user] [VAR=value] [command [arg ...]]
       sudo -v | -k | -K | -l | -V | -h`

const version = 'Sudo version 1.9 (sandbox: the runtime runs it; passwordless)\n'
const listing = 'User may run the following commands on sandbox:\n    (ALL : ALL) NOPASSWD: ALL\n'

/** sudo's `secure_path`, as Debian sets it. */
export const securePath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
/** What sudo keeps of the caller's environment by default (Debian's env_keep and the basics). */
const keptByDefault = ['TERM', 'COLORTERM', 'LANG', 'LANGUAGE', 'DISPLAY', 'TZ', 'COLUMNS', 'LINES']

/** A command to run as someone. */
export interface SudoCommand {
  user: string
  preserveEnv: boolean
  /** -i: the user's login shell (with the command, if any), in their home. */
  login: boolean
  /** -s: a shell (with the command, if any). */
  shell: boolean
  /** VAR=value before the command. */
  assignments: Record<string, string>
  command: string[]
}

/** What the command line comes to: a command, or something to print and an exit code. */
export type SudoParse = { run: SudoCommand } | { print: string; toStderr: boolean; exitCode: number }

const done = (print: string) => ({ print, toStderr: false, exitCode: 0 })
const refused = (message: string) => ({ print: `sudo: ${message}\n`, toStderr: true, exitCode: 1 })

/** Parses sudo's arguments (the options a sandbox's passwordless root needs). */
export function parseSudo(argv: string[]): SudoParse {
  const run: SudoCommand = {
    user: 'root',
    preserveEnv: false,
    login: false,
    shell: false,
    assignments: {},
    command: [],
  }
  let i = 0
  for (; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--') {
      i++
      break
    }
    if (arg === '--user' || arg.startsWith('--user=')) {
      const user = arg.includes('=') ? arg.slice('--user='.length) : argv[++i]
      if (!user) return refused('option requires an argument -- u')
      run.user = user
    } else if (arg === '--preserve-env' || arg.startsWith('--preserve-env=')) run.preserveEnv = true
    else if (arg === '--non-interactive' || arg === '--set-home') continue
    else if (arg === '--login') run.login = true
    else if (arg === '--shell') run.shell = true
    else if (arg === '--help') return done(`${sudoUsage}\n`)
    else if (arg === '--version') return done(version)
    else if (arg.startsWith('--')) return refused(`unrecognized option '${arg}'\n${sudoUsage}`)
    else if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const flag = arg[j]
        if (flag === 'n' || flag === 'H' || flag === 'S' || flag === 'A') continue
        if (flag === 'E') run.preserveEnv = true
        else if (flag === 'i') run.login = true
        else if (flag === 's') run.shell = true
        else if (flag === 'v' || flag === 'k' || flag === 'K') return done('')
        else if (flag === 'l') return done(listing)
        else if (flag === 'h') return done(`${sudoUsage}\n`)
        else if (flag === 'V') return done(version)
        else if (flag === 'u') {
          const user = arg.slice(j + 1) || argv[++i]
          if (!user) return refused('option requires an argument -- u')
          run.user = user
          break
        } else return refused(`invalid option -- '${flag}'\n${sudoUsage}`)
      }
    } else break
  }
  for (; i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i] as string); i++) {
    const [name, ...value] = (argv[i] as string).split('=')
    run.assignments[name as string] = value.join('=')
  }
  run.command = argv.slice(i)
  if (run.command.length === 0 && !run.login && !run.shell) return refused(sudoUsage)
  return { run }
}

/** The argv the runtime runs: the command, or a (login) shell given it quoted, as sudo does. */
export function sudoArgv(run: SudoCommand): string[] {
  if (!run.login && !run.shell) return run.command
  const joined = run.command.map((a) => a.replace(/([^A-Za-z0-9_\-+=/.,:@%])/g, '\\$1')).join(' ')
  const shell = ['/bin/bash', ...(run.login ? ['-l'] : [])]
  return joined ? [...shell, '-c', joined] : shell
}

/** The target user's home, as the sandbox's passwd has it. */
export function sudoHome(user: string): string {
  return user === 'root' ? '/root' : `/home/${user}`
}

/**
 * The command's environment, by sudo's rules: the caller's whole environment with -E, else only
 * the terminal and locale variables; then secure_path, the target's HOME, USER, LOGNAME and
 * SHELL, the SUDO_* variables, and the command line's VAR=value.
 */
export function sudoEnvironment(
  run: SudoCommand,
  caller: Record<string, string | undefined>,
  ids: { uid: number; gid: number },
): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(caller)) {
    if (value === undefined) continue
    if (run.preserveEnv || keptByDefault.includes(name) || name.startsWith('LC_')) kept[name] = value
  }
  return {
    ...kept,
    PATH: run.preserveEnv && caller.PATH ? caller.PATH : securePath,
    HOME: sudoHome(run.user),
    USER: run.user,
    LOGNAME: run.user,
    SHELL: '/bin/bash',
    SUDO_USER: caller.USER ?? 'user',
    SUDO_UID: String(ids.uid),
    SUDO_GID: String(ids.gid),
    SUDO_COMMAND: run.command.join(' '),
    ...run.assignments,
  }
}
