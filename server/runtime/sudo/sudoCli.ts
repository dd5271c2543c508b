// `sudo` inside a sandbox: asks the runtime (root in the sandbox) to run a command as root, over
// the sudo socket, and relays the terminal or the pipes both ways. Passwordless, as on E2B.
import { connect } from 'node:net'
import { FrameReader, frame, type SudoRequest, toRuntime, toSudo } from './sudoFrames'

const usage = `usage: sudo [-nEHis] [-u user] [VAR=value] [command [arg ...]]
       sudo -v | -k | -K | -l | -V | -h`

/** sudo's `secure_path`, as Debian sets it. */
const securePath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
/** What sudo keeps of the caller's environment by default (Debian's env_keep and the basics). */
const keptByDefault = ['TERM', 'COLORTERM', 'LANG', 'LANGUAGE', 'DISPLAY', 'TZ', 'COLUMNS', 'LINES']

interface Parsed {
  user: string
  preserveEnv: boolean
  login: boolean
  shell: boolean
  assignments: Record<string, string>
  command: string[]
}

function fail(message: string, code = 1): never {
  process.stderr.write(`sudo: ${message}\n`)
  process.exit(code)
}

/** sudo's options, as far as a sandbox with passwordless root needs them. */
function parse(argv: string[]): Parsed | 'done' {
  const parsed: Parsed = {
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
      parsed.user = arg.includes('=') ? arg.slice(7) : (argv[++i] ?? fail('option requires an argument -- u'))
      continue
    }
    if (arg === '--preserve-env' || arg.startsWith('--preserve-env=')) {
      parsed.preserveEnv = true
      continue
    }
    if (arg === '--non-interactive' || arg === '--set-home') continue
    if (arg === '--login') parsed.login = true
    else if (arg === '--shell') parsed.shell = true
    else if (arg === '--help') {
      process.stdout.write(`${usage}\n`)
      return 'done'
    } else if (arg === '--version') {
      process.stdout.write('Sudo version 1.9 (sandbox: the runtime runs it; passwordless)\n')
      return 'done'
    } else if (arg.startsWith('--')) fail(`unrecognized option '${arg}'\n${usage}`)
    else if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const flag = arg[j]
        if (flag === 'n' || flag === 'H' || flag === 'S' || flag === 'A') continue
        if (flag === 'E') parsed.preserveEnv = true
        else if (flag === 'i') parsed.login = true
        else if (flag === 's') parsed.shell = true
        else if (flag === 'v' || flag === 'k' || flag === 'K') return 'done'
        else if (flag === 'l') {
          process.stdout.write(
            'User may run the following commands on sandbox:\n    (ALL : ALL) NOPASSWD: ALL\n',
          )
          return 'done'
        } else if (flag === 'h') {
          process.stdout.write(`${usage}\n`)
          return 'done'
        } else if (flag === 'V') {
          process.stdout.write('Sudo version 1.9 (sandbox: the runtime runs it; passwordless)\n')
          return 'done'
        } else if (flag === 'u') {
          const rest = arg.slice(j + 1)
          parsed.user = rest || (argv[++i] ?? fail('option requires an argument -- u'))
          break
        } else fail(`invalid option -- '${flag}'\n${usage}`)
      }
    } else break
  }
  for (; i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i] as string); i++) {
    const [name, ...value] = (argv[i] as string).split('=')
    parsed.assignments[name as string] = value.join('=')
  }
  parsed.command = argv.slice(i)
  if (parsed.command.length === 0 && !parsed.login && !parsed.shell) fail(usage)
  return parsed
}

/** The command as the runtime runs it: a login shell for -i, the shell for -s (arguments quoted, as sudo does). */
function commandLine(parsed: Parsed): string[] {
  if (!parsed.login && !parsed.shell) return parsed.command
  const shell = '/bin/bash'
  const joined = parsed.command.map((a) => a.replace(/([^A-Za-z0-9_\-+=/.,:@%])/g, '\\$1')).join(' ')
  const flags = parsed.login ? ['-l'] : []
  return joined ? [shell, ...flags, '-c', joined] : [shell, ...flags]
}

function environment(parsed: Parsed, home: string): Record<string, string> {
  const caller = process.env
  const kept: Record<string, string> = {}
  if (parsed.preserveEnv)
    for (const [k, v] of Object.entries(caller))
      if (v !== undefined) kept[k] = v
      else
        for (const name of keptByDefault) if (caller[name] !== undefined) kept[name] = caller[name] as string
  for (const [k, v] of Object.entries(caller)) if (k.startsWith('LC_') && v !== undefined) kept[k] = v
  return {
    ...kept,
    PATH: parsed.preserveEnv && caller.PATH ? caller.PATH : securePath,
    HOME: home,
    USER: parsed.user,
    LOGNAME: parsed.user,
    SHELL: '/bin/bash',
    SUDO_USER: caller.USER ?? 'user',
    SUDO_UID: String(process.getuid?.() ?? 1000),
    SUDO_GID: String(process.getgid?.() ?? 1000),
    SUDO_COMMAND: parsed.command.join(' '),
    ...parsed.assignments,
  }
}

// The wrapper the runtime writes passes its socket first: `sudo.mjs SOCKET [sudo's arguments]`.
const [socketPath = '', ...args] = process.argv.slice(2)
const parsed = parse(args)
if (parsed === 'done') process.exit(0)
const home = parsed.user === 'root' ? '/root' : `/home/${parsed.user}`
const tty = process.stdin.isTTY
  ? { cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 }
  : null
const request: SudoRequest = {
  argv: commandLine(parsed),
  user: parsed.user,
  env: environment(parsed, home),
  cwd: parsed.login ? home : process.cwd(),
  tty,
}

const socket = connect(socketPath)
socket.on('error', (err) => fail(`cannot reach the sandbox's runtime: ${err.message}`))
const restoreTty = () => {
  if (process.stdin.isTTY) process.stdin.setRawMode(false)
}
socket.on('connect', () => {
  socket.write(`${JSON.stringify(request)}\n`)
  if (process.stdin.isTTY) process.stdin.setRawMode(true)
  process.stdin.on('data', (data) => socket.write(frame(toRuntime.stdin, data)))
  process.stdin.on('end', () => socket.write(frame(toRuntime.stdinEnd)))
  process.stdin.on('error', () => socket.write(frame(toRuntime.stdinEnd)))
  if (tty)
    process.stdout.on('resize', () =>
      socket.write(
        frame(toRuntime.resize, JSON.stringify({ cols: process.stdout.columns, rows: process.stdout.rows })),
      ),
    )
})
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const)
  process.on(signal, () => socket.write(frame(toRuntime.signal, signal)))

let exitCode = 1
const reader = new FrameReader((kind, payload) => {
  if (kind === toSudo.stdout) process.stdout.write(payload)
  else if (kind === toSudo.stderr) process.stderr.write(payload)
  else if (kind === toSudo.exit) exitCode = (JSON.parse(payload.toString()) as { code: number }).code
  else if (kind === toSudo.failed) {
    process.stderr.write(`sudo: ${payload.toString()}\n`)
    exitCode = 1
  }
})
socket.on('data', (data) => reader.push(data))
socket.on('close', () => {
  restoreTty()
  // What is still on its way out first.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(exitCode)))
})
