import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { dirname } from 'node:path'
import { spawnProcess } from '../process/spawnProcess'
import type { UserDirectory } from '../users'
import { FrameReader, frame, maxRequestBytes, type SudoRequest, toRuntime, toSudo } from './sudoFrames'

/** Signals sudo passes on to its command (a terminal's Ctrl-C reaches it through the terminal). */
const passedSignals = new Set(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'])

/** Go's words for the usual signals (how the runtime says a process ended), and their numbers. */
const signalNumbers: Record<string, number> = {
  hangup: 1,
  interrupt: 2,
  quit: 3,
  aborted: 6,
  killed: 9,
  'segmentation fault': 11,
  'broken pipe': 13,
  terminated: 15,
}

function parseRequest(line: string): SudoRequest {
  const value = JSON.parse(line) as SudoRequest
  const strings = (list: unknown) => Array.isArray(list) && list.every((s) => typeof s === 'string')
  if (!value || !strings(value.argv) || value.argv.length === 0 || typeof value.user !== 'string')
    throw new Error('malformed request')
  if (typeof value.cwd !== 'string' || typeof value.env !== 'object' || value.env === null)
    throw new Error('malformed request')
  if (!Object.values(value.env).every((v) => typeof v === 'string')) throw new Error('malformed request')
  return value
}

/** Runs one sudo request on its connection: the command as asked, its I/O relayed, its end reported. */
function serve(socket: Socket, users: UserDirectory): void {
  let head = Buffer.alloc(0)
  const fail = (message: string) => {
    socket.end(frame(toSudo.failed, message))
  }
  const onHead = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk])
    const newline = head.indexOf(0x0a)
    if (newline < 0) {
      if (head.length > maxRequestBytes) fail('the request is too large')
      return
    }
    socket.off('data', onHead)
    let request: SudoRequest
    try {
      request = parseRequest(head.subarray(0, newline).toString('utf8'))
    } catch {
      return fail('malformed request')
    }
    const user = users.lookup(request.user)
    if (!user) return fail(`unknown user ${request.user}`)
    const [cmd = '', ...args] = request.argv
    let io: ReturnType<typeof spawnProcess>
    try {
      io = spawnProcess({
        cmd,
        args,
        env: request.env,
        cwd: request.cwd,
        ...(user.uid !== 0 ? { uid: user.uid, gid: user.gid } : {}),
        ...(request.tty ? { pty: request.tty } : {}),
        stdin: true,
      })
    } catch (err) {
      return fail(err instanceof Error ? err.message : String(err))
    }
    io.onOutput((kind, data) => {
      if (!socket.destroyed) socket.write(frame(kind === 'stderr' ? toSudo.stderr : toSudo.stdout, data))
    })
    io.onExit((status) => {
      // As a shell reports a command a signal ended: 128 and the signal's number.
      const signal = signalNumbers[status.status.replace(/^signal: /, '')]
      const code = status.exited || signal === undefined ? status.exitCode : 128 + signal
      socket.end(frame(toSudo.exit, JSON.stringify({ code })))
    })
    // sudo gone (its terminal closed, it was killed): so is its command, as with a real sudo.
    socket.on('close', () => io.kill('SIGHUP'))
    const reader = new FrameReader((kind, payload) => {
      if (kind === toRuntime.stdin) io.write(payload)
      else if (kind === toRuntime.stdinEnd) io.closeStdin()
      else if (kind === toRuntime.resize) {
        const { cols, rows } = JSON.parse(payload.toString()) as { cols: number; rows: number }
        if (io.isPty && Number.isInteger(cols) && Number.isInteger(rows) && cols > 0 && rows > 0)
          io.resize(cols, rows)
      } else if (kind === toRuntime.signal) {
        const name = payload.toString()
        if (passedSignals.has(name)) io.kill(name as NodeJS.Signals)
      }
    })
    socket.on('data', (data) => reader.push(data))
    const rest = head.subarray(newline + 1)
    if (rest.length > 0) reader.push(rest)
  }
  socket.on('data', onHead)
  socket.on('error', () => socket.destroy())
}

/**
 * `sudo` inside the sandbox: a Unix socket any process of the sandbox may call (its `user` has
 * passwordless sudo, as on E2B), on which the runtime, root in the sandbox, runs a command as
 * root (or as `-u`'s user) with the caller's terminal or pipes relayed. A setuid `sudo` cannot
 * work here: bubblewrap sets no_new_privs. `client.command` (a folder on every PATH, such as
 * /usr/local/bin) gets a `sudo` that runs the client.
 */
export async function startSudoServer(
  socketPath: string,
  users: UserDirectory,
  client: { node: string; script: string; command: string },
): Promise<Server> {
  const dir = dirname(socketPath)
  mkdirSync(dir, { recursive: true, mode: 0o755 })
  chmodSync(dir, 0o755)
  const wrapper = client.command
  mkdirSync(dirname(wrapper), { recursive: true, mode: 0o755 })
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec ${quote(client.node)} ${quote(client.script)} ${quote(socketPath)} "$@"\n`,
    {
      mode: 0o755,
    },
  )
  rmSync(socketPath, { force: true })
  const server = createServer((socket) => serve(socket, users))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(socketPath, () => resolve())
  })
  chmodSync(socketPath, 0o666)
  return server
}
