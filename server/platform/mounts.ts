import { readFileSync } from 'node:fs'
import { runOnHost } from './toolRunner'

/**
 * Runs a host tool (mount, umount, mkfs) and waits for it; a failure's error carries its
 * `stderr`. Started by the tool runner (toolRunner.ts): in a session of its own, so a Ctrl-C
 * meant for the stack does not cut a mount or an unmount short, and without forking the stack.
 */
export async function runTool(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const { code, signal, stdout, stderr } = await runOnHost(file, args)
  if (code === 0) return { stdout, stderr }
  const status = signal ? `killed by signal ${signal}` : `exit code ${code}`
  throw Object.assign(new Error(`${file} ${args.join(' ')} failed (${status}): ${stderr.trim()}`), { stderr })
}

/** Mount points of this process's mount namespace, from /proc/self/mountinfo (its 5th field, octal-escaped). */
export function mountPoints(): Set<string> {
  const points = new Set<string>()
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const point = line.split(' ')[4]
    if (point)
      points.add(
        point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))),
      )
  }
  return points
}

/** Unmounts `at`; if something still holds it (a process on its way out), detaches it now. */
export async function unmount(at: string): Promise<void> {
  try {
    await runTool('umount', [at])
  } catch {
    await runTool('umount', ['-l', at])
  }
}
