// `sudo` inside a sandbox: asks the runtime (root in the sandbox) to run a command as root, over
// the sudo socket, and relays the terminal or the pipes both ways. Passwordless, as on E2B.
import { connect } from 'node:net'
import { FrameReader, frame, type SudoRequest, toRuntime, toSudo } from './sudoFrames'
import { parseSudo, type SudoCommand, sudoArgv, sudoEnvironment, sudoHome } from './sudoOptions'

function fail(message: string): never {
  process.stderr.write(`sudo: ${message}\n`)
  process.exit(1)
}

// The wrapper the runtime writes passes its socket first: `sudo.mjs SOCKET [sudo's arguments]`.
const [socketPath = '', ...args] = process.argv.slice(2)
const parsed = parseSudo(args)
if (!('run' in parsed)) {
  ;(parsed.toStderr ? process.stderr : process.stdout).write(parsed.print, () =>
    process.exit(parsed.exitCode),
  )
} else runCommand(parsed.run)

function runCommand(run: SudoCommand): void {
  const home = sudoHome(run.user)
  const tty = process.stdin.isTTY
    ? { cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 }
    : null
  const request: SudoRequest = {
    argv: sudoArgv(run),
    user: run.user,
    env: sudoEnvironment(run, process.env, {
      uid: process.getuid?.() ?? 1000,
      gid: process.getgid?.() ?? 1000,
    }),
    cwd: run.login ? home : process.cwd(),
    tty,
  }

  const socket = connect(socketPath)
  let connected = false
  // Before the connection: the runtime cannot be reached. After it, a write that races the
  // runtime's end of the connection (stdin's end after the command's exit) is no failure: the
  // end and its exit code arrive, or the close says the command's fate is unknown.
  socket.on('error', (err) => {
    if (!connected) fail(`cannot reach the sandbox's runtime: ${err.message}`)
  })
  /** Sends a frame while the connection can still carry it. */
  const send = (data: Buffer | string) => {
    if (socket.writable) socket.write(data)
  }
  const restoreTty = () => {
    if (process.stdin.isTTY) process.stdin.setRawMode(false)
  }
  socket.on('connect', () => {
    connected = true
    send(`${JSON.stringify(request)}\n`)
    if (process.stdin.isTTY) process.stdin.setRawMode(true)
    process.stdin.on('data', (data) => send(frame(toRuntime.stdin, data)))
    process.stdin.on('end', () => send(frame(toRuntime.stdinEnd)))
    process.stdin.on('error', () => send(frame(toRuntime.stdinEnd)))
    if (tty)
      process.stdout.on('resize', () =>
        send(
          frame(
            toRuntime.resize,
            JSON.stringify({ cols: process.stdout.columns, rows: process.stdout.rows }),
          ),
        ),
      )
  })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const)
    process.on(signal, () => send(frame(toRuntime.signal, signal)))

  let exitCode = 1
  /** Whether the runtime said how the command ended (its exit, or why it could not start). */
  let told = false
  const reader = new FrameReader((kind, payload) => {
    if (kind === toSudo.stdout) process.stdout.write(payload)
    else if (kind === toSudo.stderr) process.stderr.write(payload)
    else if (kind === toSudo.exit) {
      told = true
      exitCode = (JSON.parse(payload.toString()) as { code: number }).code
    } else if (kind === toSudo.failed) {
      told = true
      process.stderr.write(`sudo: ${payload.toString()}\n`)
      exitCode = 1
    }
  })
  socket.on('data', (data) => reader.push(data))
  socket.on('close', () => {
    restoreTty()
    if (connected && !told)
      process.stderr.write("sudo: the sandbox's runtime ended the command without its exit\n")
    // What is still on its way out first.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(exitCode)))
  })
}
