import { spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import type { Readable, Writable } from 'node:stream'

export const slirpPath = '/usr/bin/slirp4netns'

/** Whether slirp4netns is here to give sandboxes outbound access. */
export function hasSlirp(path = slirpPath): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * Connects a sandbox's network namespace to the outside world with slirp4netns (user-mode
 * networking, as rootless Podman uses it: no root, no bridge, no iptables). The sandbox gets an
 * interface, a route and DNS (10.0.2.3) for `pip`, `apt` and `git`, and nothing of the host: no
 * port of the sandbox is forwarded to the host (the router reaches them through the runtime),
 * and the host's loopback, which the gateway address would otherwise reach, is refused
 * (`--disable-host-loopback`). It runs in a mount namespace of its own under seccomp. Resolves
 * once the interface is up; returns how to stop it. It also stops by itself when the platform
 * dies, which closes its exit fd.
 */
export function attachSlirp(
  initPid: number,
  log: (line: string) => void,
  path = slirpPath,
): Promise<() => void> {
  const child = spawn(
    path,
    [
      '--configure',
      '--mtu=65520',
      '--disable-host-loopback',
      '--enable-sandbox',
      '--enable-seccomp',
      '--ready-fd=3',
      '--exit-fd=4',
      '--netns-type=path',
      `/proc/${initPid}/ns/net`,
      'tap0',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin' },
      // Its own session: a Ctrl-C meant for the stack does not cut a sandbox off before it stops.
      detached: true,
    },
  )
  const ready = child.stdio[3] as Readable
  const exit = child.stdio[4] as Writable
  // Socket pairs, not pipes: the other end closing is a reset, which only means it ended.
  ready.on('error', () => {})
  exit.on('error', () => {})
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + String(chunk)).slice(-2000)
  })
  return new Promise((resolve, reject) => {
    const failed = (why: string) =>
      reject(new Error(`slirp4netns ${why}${stderr.trim() ? `: ${stderr.trim()}` : ''}`))
    child.once('error', (err) => failed(err.message))
    child.once('exit', (code, signal) =>
      failed(`ended before it was ready (${signal ?? `exit code ${code}`})`),
    )
    ready.once('data', () => {
      let stopped = false
      child.removeAllListeners('exit')
      child.once('exit', (code, signal) => {
        if (!stopped) log(`slirp4netns ended (${signal ?? `exit code ${code}`}): ${stderr.trim()}`)
      })
      resolve(() => {
        // It ends on the closed exit fd, or on the signal, whichever it sees first.
        stopped = true
        exit.destroy()
        child.kill('SIGTERM')
      })
    })
  })
}
