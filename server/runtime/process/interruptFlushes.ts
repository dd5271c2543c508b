import { execFile } from 'node:child_process'

/** Longest a termios check may take; a check that takes longer says no. */
const timeoutMs = 1000

/**
 * Whether a Ctrl-C typed now into the terminal at `ttyPath` interrupts and flushes its output, as
 * a real terminal does it: `intr` is ^C, `isig` is on (a full-screen program in raw mode gets ^C
 * as a plain byte) and `noflsh` is off. Node cannot read termios itself, so `stty` does.
 */
export function interruptFlushes(ttyPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('stty', ['-a', '-F', ttyPath], { timeout: timeoutMs }, (err, stdout) => {
      resolve(!err && interruptFlushesPer(stdout))
    })
  })
}

/** Reads `stty -a`'s answer. */
export function interruptFlushesPer(stty: string): boolean {
  const words = new Set(stty.split(/[\s;]+/))
  return /(^|[\s;])intr = \^C;/.test(stty) && words.has('isig') && words.has('-noflsh')
}
