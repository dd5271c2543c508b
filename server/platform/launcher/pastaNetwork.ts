import { execFile } from 'node:child_process'
import { accessSync, constants, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { signalQuietly } from './signalQuietly'

export const pastaPath = '/usr/bin/pasta'

/** Whether pasta (Debian's `passt`) is here to give sandboxes outbound access. */
export function hasPasta(path = pastaPath): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
  } catch {
    return undefined
  }
}

/**
 * Connects a sandbox's network namespace to the outside world with pasta (user-mode networking,
 * no root, no bridge, no iptables): the sandbox gets an address, a route and DNS for `pip`,
 * `apt` and `git`, but nothing of the host: no port of the sandbox is forwarded to the host
 * (`-t none …`, the router reaches them through the runtime), and the gateway is not mapped to
 * the host's loopback (`--no-map-gw`), so the platform and other sandboxes' routes stay out of
 * reach. Resolves once the namespace is configured (pasta then runs on in the background);
 * returns how to stop it.
 */
export function attachPasta(initPid: number, runDir: string, path = pastaPath): Promise<() => void> {
  const pidFile = join(runDir, 'pasta.pid')
  const args = [
    '--config-net',
    '--no-map-gw',
    '--quiet',
    // pasta gives up root for nobody, who may not enter the sandbox's namespaces; as anyone
    // else, this is who it runs as anyway.
    '--runas',
    String(process.getuid?.() ?? 0),
    ...['-t', 'none', '-u', 'none', '-T', 'none', '-U', 'none'],
    '--pid',
    pidFile,
    // The platform made the sandbox's user namespace, so it may enter its network one directly.
    '--netns-only',
    '--netns',
    `/proc/${initPid}/ns/net`,
  ]
  return new Promise((resolve, reject) => {
    execFile(path, args, { timeout: 10_000, env: { PATH: '/usr/bin:/bin' } }, (err, _out, stderr) => {
      if (err) {
        reject(new Error(`pasta failed: ${stderr.trim() || err.message}`))
        return
      }
      const pid = Number(readFileSync(pidFile, 'utf8').trim())
      resolve(() => {
        // It holds the namespace open, so it never ends by itself; a pid since reused by another
        // program is left alone (pasta runs as `passt.avx2` where the CPU allows).
        if (Number.isInteger(pid) && pid > 0 && /^pas(ta|st)/.test(commandOf(pid) ?? ''))
          signalQuietly(pid, 'SIGTERM')
        rmSync(pidFile, { force: true })
      })
    })
  })
}
