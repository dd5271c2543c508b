import { type ChildProcess, execFile, spawn } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  lchownSync,
  lstatSync,
  readdirSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { minimalSystemArgs, type RootEntry } from './hostSystemPaths'
import { sandboxUser } from './sandboxEtcFiles'

/**
 * The host ids a sandbox's `root` (0) and `user` (1000) are: unprivileged ids far from any real
 * user's, never host root. Inside, root holds capabilities over what these ids own, and over
 * nothing of the host's.
 */
export const sandboxHostIds = { root: 100_000, user: 100_000 + sandboxUser.uid }

/**
 * What root in a sandbox may do: Docker's default capabilities (what `apt`, `chown`, a server on
 * port 80 need), never CAP_SYS_ADMIN (no mounts: nothing the platform mounted can be undone, and
 * the hidden host files stay hidden).
 */
export const sandboxRootCapabilities = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_FSETID',
  'CAP_FOWNER',
  'CAP_MKNOD',
  'CAP_NET_RAW',
  'CAP_SETGID',
  'CAP_SETUID',
  'CAP_SETFCAP',
  'CAP_SETPCAP',
  'CAP_NET_BIND_SERVICE',
  'CAP_SYS_CHROOT',
  'CAP_KILL',
  'CAP_AUDIT_WRITE',
]

const unsharePath = '/usr/bin/unshare'
export const nsenterPath = '/usr/bin/nsenter'

/**
 * Every id a system's files may have (apt's `_apt`, `staff`), shifted by 100000: root is 100000
 * and `user` 101000 on the host. Root inside has capabilities over what these ids own.
 */
const idMap = `0 ${sandboxHostIds.root} 65536\n`

/** A user namespace with the sandboxes' ids mapped (see `idMap`), held open until a sandbox is in it. */
export interface SandboxUserNamespace {
  /** `/proc/{pid}/ns/user` of the process holding it, for `nsenter --user=`. */
  path: string
  /** Lets the holding process go: the namespace lives on in the sandbox's processes. */
  release(): void
}

/**
 * Makes a user namespace whose root and `user` are `sandboxHostIds`. util-linux's `unshare`
 * makes it (its own `--map-users` wants /etc/subuid entries through newuidmap); the platform,
 * root on the host, writes its maps, each in a single write as the kernel requires.
 */
export async function openSandboxUserNamespace(): Promise<SandboxUserNamespace> {
  const holder: ChildProcess = spawn(unsharePath, ['--user', '--', '/bin/sh', '-c', 'read -r _'], {
    stdio: ['pipe', 'ignore', 'ignore'],
  })
  const release = () => {
    holder.stdin?.end()
    holder.kill('SIGKILL')
  }
  try {
    const pid = holder.pid
    if (pid === undefined) throw new Error(`${unsharePath} could not be started`)
    const own = readlinkSync('/proc/self/ns/user')
    const deadline = Date.now() + 5000
    while (readlinkSync(`/proc/${pid}/ns/user`) === own) {
      if (Date.now() > deadline || holder.exitCode !== null) throw new Error('unshare made no user namespace')
      await sleep(2)
    }
    writeFileSync(`/proc/${pid}/uid_map`, idMap)
    writeFileSync(`/proc/${pid}/gid_map`, idMap)
    return { path: `/proc/${pid}/ns/user`, release }
  } catch (err) {
    release()
    throw err
  }
}

/** nsenter's arguments that put a command in `ns` as its root (full capabilities there, none outside). */
export function asRootIn(ns: SandboxUserNamespace, command: string, args: string[]): string[] {
  return [`--user=${ns.path}`, '--setuid', '0', '--setgid', '0', '--', command, ...args]
}

/**
 * Whether sandboxes can have a root of their own here: the platform must be root on the host (to
 * write the maps), with util-linux's unshare and nsenter; then one trivial sandbox is tried.
 */
export async function probeRootInSandbox(
  bwrapPath: string,
  rootEntries: RootEntry[],
  /** Host paths each sandbox binds by path (source, destination): its root must reach them. */
  binds: [string, string][],
): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (process.getuid?.() !== 0)
    return {
      ok: false,
      reason: 'the platform is not root on this machine, so it cannot map ids for a root inside',
    }
  if (!existsSync(unsharePath) || !existsSync(nsenterPath))
    return { ok: false, reason: "util-linux's unshare and nsenter are missing" }
  let ns: SandboxUserNamespace
  try {
    ns = await openSandboxUserNamespace()
  } catch (err) {
    return {
      ok: false,
      reason: `no user namespace with mapped ids: ${err instanceof Error ? err.message : String(err)}`,
    }
  }
  const bwrap = [
    ...sandboxRootCapabilities.flatMap((cap) => ['--cap-add', cap]),
    '--unshare-pid',
    '--unshare-net',
    '--die-with-parent',
    ...minimalSystemArgs(rootEntries),
    ...binds.flatMap(([source, dest]) => ['--ro-bind', source, dest]),
    '--',
    '/usr/bin/id',
    '-u',
  ]
  return new Promise((resolve) => {
    execFile(
      nsenterPath,
      asRootIn(ns, bwrapPath, ['--cap-drop', 'ALL', ...bwrap]),
      { timeout: 10_000, env: { PATH: '/usr/bin:/bin' } },
      (err, out, stderr) => {
        ns.release()
        if (!err && out.trim() === '0') resolve({ ok: true })
        else
          resolve({
            ok: false,
            reason: `a sandbox with a root of its own failed: ${stderr.trim() || err?.message || out}`,
          })
      },
    )
  })
}

/**
 * Makes `uid`/`gid` own `dir` and everything in it, when `dir` itself is not theirs yet: a new
 * sandbox's home (seeded by the platform, as host root), or one from before sandboxes had a root
 * of their own. A home already theirs is left as it is (files root made in it stay root's).
 */
export function ownTree(dir: string, uid: number, gid: number): void {
  const stat = lstatSync(dir)
  if (stat.uid === uid && stat.gid === gid) return
  const walk = (path: string) => {
    lchownSync(path, uid, gid)
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name)
      if (entry.isDirectory()) walk(child)
      else lchownSync(child, uid, gid)
    }
  }
  walk(dir)
}

/**
 * Lets everyone pass through `dir` and its parents up to `upTo` (search permission only: no
 * listing), so a sandbox's root reaches its own home by path; nothing in them is readable for it.
 */
export function grantPassage(dir: string, upTo: string): void {
  const last = resolve(upTo)
  for (let path = resolve(dir); ; path = dirname(path)) {
    const mode = statSync(path).mode & 0o7777
    if ((mode & 0o001) === 0) chmodSync(path, mode | 0o001)
    if (path === last || path === dirname(path)) return
  }
}
