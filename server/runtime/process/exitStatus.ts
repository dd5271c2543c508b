import { constants } from 'node:os'

/** How a process ended, in the words envd uses (Go's ProcessState). */
export interface ExitStatus {
  /** -1 when a signal ended it (Go's ExitCode()). */
  exitCode: number
  /** True only for a normal exit. */
  exited: boolean
  /** "exit status 2", "signal: killed" */
  status: string
  /** The Wait() error text; absent on exit 0. */
  error?: string
}

/** Go's names for signals, as `signal: <name>` shows them. */
const goSignalNames: Record<string, string> = {
  SIGHUP: 'hangup',
  SIGINT: 'interrupt',
  SIGQUIT: 'quit',
  SIGILL: 'illegal instruction',
  SIGTRAP: 'trace/breakpoint trap',
  SIGABRT: 'aborted',
  SIGBUS: 'bus error',
  SIGFPE: 'floating point exception',
  SIGKILL: 'killed',
  SIGUSR1: 'user defined signal 1',
  SIGSEGV: 'segmentation fault',
  SIGUSR2: 'user defined signal 2',
  SIGPIPE: 'broken pipe',
  SIGALRM: 'alarm clock',
  SIGTERM: 'terminated',
}

const signalNameByNumber = new Map(Object.entries(constants.signals).map(([name, num]) => [num, name]))

/** The exit status for an exit code, or for a signal given by name or number. */
export function exitStatus(code: number | null, signal: NodeJS.Signals | number | null): ExitStatus {
  const signalName = typeof signal === 'number' ? signalNameByNumber.get(signal) : signal
  if (signal && signalName) {
    const status = `signal: ${goSignalNames[signalName] ?? signalName}`
    return { exitCode: -1, exited: false, status, error: status }
  }
  const exitCode = code ?? 0
  const status = `exit status ${exitCode}`
  return exitCode === 0
    ? { exitCode, exited: true, status }
    : { exitCode, exited: true, status, error: status }
}
