import { type ChildProcess, spawn as spawnChild } from 'node:child_process'
import * as pty from 'node-pty'
import { errnoCode } from '../errors'
import { type ExitStatus, exitStatus } from './exitStatus'
import type { OutputKind } from './outputLog'
import { PtyDrain } from './ptyDrain'

/** What a started process needs: resolved command, environment, identity and terminal. */
export interface SpawnSpec {
  cmd: string
  args: string[]
  env: Record<string, string>
  cwd: string
  /** Run as this uid/gid (only when the runtime is root). */
  uid?: number
  gid?: number
  /** A terminal of this size, or pipes when absent. */
  pty?: { cols: number; rows: number }
  /** Pipe mode: open a stdin pipe (otherwise stdin is /dev/null). */
  stdin: boolean
}

/** One running OS process, PTY or pipes, behind one small interface. */
export interface ProcessIO {
  readonly pid: number
  readonly isPty: boolean
  /** The terminal's device (its slave side), for a PTY. */
  readonly ttyPath: string | undefined
  /** Pipe mode with a stdin pipe that is still open. */
  readonly stdinOpen: boolean
  onOutput(listener: (kind: OutputKind, data: Uint8Array) => void): void
  /** Called once, after all output was delivered. */
  onExit(listener: (status: ExitStatus) => void): void
  /** Stop reading output, so the process blocks once the kernel buffer fills. */
  pause(): void
  resume(): void
  write(data: Uint8Array): void
  closeStdin(): void
  resize(cols: number, rows: number): void
  kill(signal: NodeJS.Signals): void
}

/**
 * Runs `cmd` through `/bin/sh` as envd does, so the shell looks it up on PATH and a missing
 * command ends with status 127 and a message on stderr rather than failing the call. First the
 * shell puts the process back within reach of the out-of-memory killer: the platform shields
 * the runtime from it (a sandbox that runs out of memory loses its hog, never its runtime), and
 * children would inherit that.
 */
const shellArgs = (spec: SpawnSpec) => [
  '-c',
  '{ echo 0 > /proc/self/oom_score_adj; } 2>/dev/null; exec "$0" "$@"',
  spec.cmd,
  ...spec.args,
]

/** Starts the process described by `spec`. */
export function spawnProcess(spec: SpawnSpec): ProcessIO {
  return spec.pty ? spawnPty(spec, spec.pty) : spawnPipes(spec)
}

function spawnPty(spec: SpawnSpec, size: { cols: number; rows: number }): ProcessIO {
  const term = pty.spawn('/bin/sh', shellArgs(spec), {
    name: spec.env.TERM ?? 'xterm-256color',
    cols: size.cols,
    rows: size.rows,
    cwd: spec.cwd,
    env: spec.env,
    encoding: null,
    ...(spec.uid !== undefined ? { uid: spec.uid, gid: spec.gid } : {}),
  })
  let paused = false
  let exited = false
  const drain = new PtyDrain(term, () => {
    // A terminal paused for a slow client must read on once its process is gone.
    exited = true
    if (paused) term.resume()
    paused = false
  })
  return {
    pid: term.pid,
    isPty: true,
    ttyPath: (term as unknown as { ptsName?: string }).ptsName,
    stdinOpen: false,
    onOutput: (listener) => {
      term.onData((data) => {
        const output = drain.filter(data as unknown as Buffer)
        if (output.length > 0) listener('pty', output)
      })
    },
    onExit: (listener) => {
      term.onExit(({ exitCode, signal }) => {
        drain.dispose()
        listener(exitStatus(exitCode, signal ? signal : null))
      })
    },
    pause: () => {
      if (paused || exited) return
      paused = true
      term.pause()
    },
    resume: () => {
      if (paused) term.resume()
      paused = false
    },
    write: (data) => term.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength)),
    closeStdin: () => {},
    resize: (cols, rows) => term.resize(cols, rows),
    kill: (signal) => signalPid(term.pid, signal),
  }
}

function spawnPipes(spec: SpawnSpec): ProcessIO {
  const child: ChildProcess = spawnChild('/bin/sh', shellArgs(spec), {
    cwd: spec.cwd,
    env: spec.env,
    stdio: [spec.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    ...(spec.uid !== undefined ? { uid: spec.uid, gid: spec.gid } : {}),
  })
  let spawnError: Error | undefined
  child.once('error', (err) => {
    spawnError = err
  })
  if (child.pid === undefined) {
    // The failure itself arrives as an 'error' event, already handled above.
    throw new Error(`cannot start process: /bin/sh in '${spec.cwd}' could not be executed`)
  }
  const pid = child.pid
  let stdinOpen = spec.stdin
  // A process that stops reading its stdin must not crash the runtime with EPIPE.
  child.stdin?.on('error', () => {
    stdinOpen = false
  })
  return {
    pid,
    isPty: false,
    ttyPath: undefined,
    get stdinOpen() {
      return stdinOpen && !!child.stdin?.writable
    },
    onOutput: (listener) => {
      child.stdout?.on('data', (data: Buffer) => listener('stdout', data))
      child.stderr?.on('data', (data: Buffer) => listener('stderr', data))
    },
    onExit: (listener) => {
      // 'close' comes after every holder of stdout/stderr closed them, as envd's end event does.
      child.once('close', (code, signal) => {
        const status = exitStatus(code, signal)
        listener(spawnError ? { ...status, error: spawnError.message } : status)
      })
    },
    pause: () => {
      child.stdout?.pause()
      child.stderr?.pause()
    },
    resume: () => {
      child.stdout?.resume()
      child.stderr?.resume()
    },
    write: (data) => {
      child.stdin?.write(data)
    },
    closeStdin: () => {
      stdinOpen = false
      child.stdin?.end()
    },
    resize: () => {},
    kill: (signal) => signalPid(pid, signal),
  }
}

/** Signals a pid; one that already exited (and awaits its exit event) needs no signal. */
function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal)
  } catch (err) {
    if (errnoCode(err) !== 'ESRCH') throw err
  }
}
