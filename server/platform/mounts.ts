import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'

/** Runs a host tool (mount, umount, mkfs) and waits for it. */
export const runTool = promisify(execFile)

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
