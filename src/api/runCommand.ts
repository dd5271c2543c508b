import { create } from '@bufbuild/protobuf'
import { type Client, Code, ConnectError } from '@connectrpc/connect'
import { type Process, ProcessConfigSchema } from '../gen/process_pb'

/** How a command run to its end went. */
export interface CommandResult {
  /** -1 when it was killed by a signal (or by its time limit). */
  exitCode: number
  /** The runtime's words: "exit status 1", "signal: killed". */
  status: string
  /** Its time limit ran out and the runtime killed it. */
  timedOut: boolean
  stdout: string
  stderr: string
  /** stdout and stderr as they came, interleaved. */
  output: string
}

export interface RunOptions {
  args?: string[]
  cwd?: string
  /** The process's lifetime: the runtime kills it then (envd's Connect-Timeout-Ms on Start). */
  timeoutMs?: number
  tag?: string
  /** Called with the output gathered so far, as it grows. */
  onOutput?: (output: string) => void
  signal?: AbortSignal
}

/** Output kept per stream: the tail, where failures are reported. */
const maxChars = 200_000
const tail = (text: string) => (text.length > maxChars ? text.slice(-maxChars) : text)

/** Runs a command in the sandbox without a terminal (stdin closed) and gathers its output. */
export async function runCommand(
  client: Pick<Client<typeof Process>, 'start'>,
  cmd: string,
  { args = [], cwd, timeoutMs, tag, onOutput, signal }: RunOptions = {},
): Promise<CommandResult> {
  const result: CommandResult = {
    exitCode: -1,
    status: '',
    timedOut: false,
    stdout: '',
    stderr: '',
    output: '',
  }
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() }
  const config = create(ProcessConfigSchema, { cmd, args, ...(cwd ? { cwd } : {}) })
  try {
    const events = client.start(
      { process: config, stdin: false, ...(tag ? { tag } : {}) },
      { ...(timeoutMs ? { timeoutMs } : {}), ...(signal ? { signal } : {}) },
    )
    for await (const { event } of events) {
      const e = event?.event
      if (e?.case === 'data' && (e.value.output.case === 'stdout' || e.value.output.case === 'stderr')) {
        const kind = e.value.output.case
        const text = decoders[kind].decode(e.value.output.value, { stream: true })
        result[kind] = tail(result[kind] + text)
        result.output = tail(result.output + text)
        onOutput?.(result.output)
      } else if (e?.case === 'end') {
        result.exitCode = e.value.exitCode
        result.status = e.value.error || e.value.status
      }
    }
  } catch (err) {
    if (!(err instanceof ConnectError && err.code === Code.DeadlineExceeded)) throw err
    result.timedOut = true
    result.status = `killed after ${Math.round((timeoutMs ?? 0) / 1000)} s`
  }
  return result
}
