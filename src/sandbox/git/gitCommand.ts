import { Code, ConnectError } from '@connectrpc/connect'
import { readProcessStream } from '../../api/processStream'
import { streamHeaders } from '../../api/runtimeTransport'
import { concatBytes } from '../../common/concatBytes'
import type { ProcessEvent } from '../../gen/process_pb'
import type { SandboxSession } from '../SandboxSession'
import { pidSelector } from '../sandboxProcesses'

/** An argument for git: text, or a file name's own bytes (which need not be UTF-8). */
export type GitArg = string | Uint8Array

/** How one git command went. */
export interface GitResult {
  /** 127: there is no git; -1: killed (its time limit, or its output over `maxBytes`). */
  exitCode: number
  stdout: Uint8Array
  /** As git printed it (decoded as UTF-8, with replacement characters where it is not). */
  stderr: string
  /** Its stdout passed `maxBytes` and it was stopped there. */
  truncated: boolean
}

export interface GitOptions {
  /** The folder it runs in (absolute). */
  cwd: string
  /** Bytes for its stdin, closed after them (a commit message); without, stdin is closed at once. */
  input?: Uint8Array
  /** Its environment beyond the defaults (`gitEnv`). */
  env?: Record<string, string>
  /** The runtime kills it after this long. */
  timeoutMs?: number
  /** It is stopped once its stdout passes this many bytes (a file's contents for a diff). */
  maxBytes?: number
}

/** Runs one git command in the sandbox and gathers its output; rejects only when the runtime cannot run it. */
export type GitRunner = (args: readonly GitArg[], options: GitOptions) => Promise<GitResult>

/**
 * Every git command's environment: C messages (parsed and shown as git prints them), no prompt
 * for a password or an editor (nothing could answer one: the process has no terminal), and file
 * names taken as they are, never as patterns (a file called `*.js` is that file alone).
 */
export const gitEnv: Readonly<Record<string, string>> = {
  LC_ALL: 'C',
  GIT_TERMINAL_PROMPT: '0',
  GCM_INTERACTIVE: 'never',
  GIT_EDITOR: 'true',
  GIT_LITERAL_PATHSPECS: '1',
}

const encoder = new TextEncoder()
const printable = (byte: number) => byte >= 0x20 && byte < 0x7f && byte !== 0x27 && byte !== 0x5c

/**
 * One argument as bash's ANSI-C quoting (`$'…'`): printable ASCII as it is, every other byte as
 * a three-digit octal escape, so the command line is plain ASCII whatever the bytes (a newline,
 * a quote, a byte that is not UTF-8). NUL cannot be in an argument, so it is refused.
 */
export function bashQuote(arg: GitArg): string {
  const bytes = typeof arg === 'string' ? encoder.encode(arg) : arg
  let out = "$'"
  for (const byte of bytes) {
    if (byte === 0) throw new Error('an argument cannot hold a NUL byte')
    out += printable(byte) ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`
  }
  return `${out}'`
}

/** The bash command line that runs git with these arguments; `exec`, so git's own exit code (127 when missing) is the process's. */
export function gitCommandLine(args: readonly GitArg[]): string {
  return ['exec', 'git', ...args.map(bashQuote)].join(' ')
}

/**
 * Git through the runtime's own Start (no PTY), its output read as bytes, in bash with every
 * argument quoted by `bashQuote` (process arguments travel as UTF-8 text; a file's name may not
 * be). Stdin, when given, goes by SendInput and is then closed (CloseStdin).
 */
export function sandboxGitRunner(session: SandboxSession): GitRunner {
  return async (args, { cwd, input, env = {}, timeoutMs = 60_000, maxBytes = 256 * 1024 * 1024 }) => {
    const endpoint = session.streamEndpoint()
    if (!endpoint) throw new Error('the sandbox is not connected')
    const stdout: Uint8Array[] = []
    const stderr: Uint8Array[] = []
    let size = 0
    let exitCode = -1
    let truncated = false
    let pid: number | undefined
    const abort = new AbortController()
    const onEvent = (event: ProcessEvent) => {
      const e = event.event
      if (e.case === 'start') {
        pid = e.value.pid
        // A git that ends before reading its input says why in its exit status and stderr.
        if (input) feed(e.value.pid, input).catch(() => {})
      } else if (e.case === 'data') {
        const output = e.value.output
        if (output.case === 'stdout') {
          stdout.push(output.value)
          size += output.value.length
          if (size > maxBytes && !truncated) {
            truncated = true
            abort.abort()
          }
        } else if (output.case === 'stderr') stderr.push(output.value)
      } else if (e.case === 'end') exitCode = e.value.exitCode
    }
    const feed = async (target: number, bytes: Uint8Array) => {
      const clients = session.clients
      try {
        await clients?.process.sendInput({
          process: pidSelector(target),
          input: { input: { case: 'stdin', value: bytes } },
        })
      } finally {
        await clients?.process.closeStdin({ process: pidSelector(target) }).catch(() => {})
      }
    }
    try {
      await readProcessStream(
        endpoint,
        {
          method: 'Start',
          message: {
            process: {
              cmd: '/bin/bash',
              args: ['-c', gitCommandLine(args)],
              envs: { ...gitEnv, ...env },
              cwd,
            },
            stdin: !!input,
            tag: 'ide-git',
          },
        },
        {
          headers: { ...streamHeaders, 'Connect-Timeout-Ms': String(timeoutMs) },
          signal: abort.signal,
          onEvent,
          room: () => Promise.resolve(),
        },
      )
    } catch (err) {
      const killed = truncated || (err instanceof ConnectError && err.code === Code.DeadlineExceeded)
      if (!killed) throw err
      // A stream given up on may leave its process running.
      if (pid !== undefined) void session.processes.signal(pid, 'SIGKILL').catch(() => false)
      if (!truncated)
        stderr.push(
          encoder.encode(`git ${String(args[0])} took longer than ${timeoutMs / 1000} s and was stopped`),
        )
      exitCode = -1
    }
    return {
      exitCode,
      stdout: concatBytes(stdout),
      stderr: new TextDecoder().decode(concatBytes(stderr)),
      truncated,
    }
  }
}
