import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * Runs a host tool (mount, umount, mkfs) and waits for it; a failure's error carries its
 * `stderr`. In a session of its own: a Ctrl-C meant for the stack must not cut a mount or an
 * unmount short; the stack finishes or undoes it itself.
 */
export function runTool(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.once('error', reject)
    child.once('close', (code, signal) => {
      if (code === 0) return resolve({ stdout, stderr })
      const status = signal ? `killed by ${signal}` : `exit code ${code}`
      reject(
        Object.assign(new Error(`${file} ${args.join(' ')} failed (${status}): ${stderr.trim()}`), {
          stderr,
        }),
      )
    })
  })
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
