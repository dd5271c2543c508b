import { basename, dirname, join } from 'node:path'
import { localLanguageServersDir } from '../../../src/contract/languageServers'
import type { HostSystemPaths } from './hostSystemPaths'
import type { RuntimeBundle } from './runtimeBundle'
import { type SandboxEtcFiles, sandboxHostname, sandboxUser } from './sandboxEtcFiles'
import type { UnreadableEntries } from './unreadableEtcEntries'

/** Where the runtime's code appears inside a sandbox. */
export const sandboxRuntimeRoot = '/opt/sandbox-runtime'
/** The folder, inside, that holds the runtime's Unix socket (a host folder bound in). */
export const sandboxSocketDir = join(sandboxRuntimeRoot, 'run')
/** Where, inside, the runtime reads its sandbox's out-of-memory kills. */
export const sandboxOomEvents = join(sandboxRuntimeRoot, 'oom-events')
/** Where, inside, the runtime serves `sudo` (a tmpfs of the sandbox's own). */
export const sandboxSudoSocket = '/run/sandbox-runtime/sudo.sock'

/** Everything bubblewrap needs to build one sandbox's file system. */
export interface BubblewrapLayout {
  /** Host folder that becomes /home/user, read-write. */
  homeDir: string
  system: HostSystemPaths
  etc: SandboxEtcFiles
  /** Host secrets under /etc, hidden behind blanks. */
  hidden: UnreadableEntries
  bundle: RuntimeBundle
  /** The host's node binary (real path); bound in when it lives outside /usr. */
  nodePath: string
  /** Host folder bound at `sandboxSocketDir`, where the runtime makes its socket. */
  socketDir: string
  /** The sandbox's memory cgroup events (on the host), bound read-only at `sandboxOomEvents`. */
  oomEvents?: string
  /**
   * A network namespace of its own, loopback only until the launcher connects it (bwrap waits
   * on `blockFd` after writing its pids to `infoFd`).
   */
  network?: { infoFd: number; blockFd: number }
  /**
   * The sandbox has a root of its own: bwrap runs as root of a user namespace the launcher made
   * (see sandboxUserNamespace), keeps root's capabilities for the runtime, and `rootHome` (a host
   * folder) becomes /root.
   */
  root?: {
    capabilities: string[]
    rootHome: string
    /** The sandbox's own writable system folders (host folder, sandbox folder), over the host's read-only ones. */
    system?: [string, string][]
  }
}

/** Bubblewrap's arguments and the runtime's paths as seen from inside. */
export interface BubblewrapCommand {
  /** Options for bwrap (the command goes after them, behind `--`). */
  args: string[]
  /** The node binary inside the sandbox. */
  node: string
  /** The runtime bundle inside the sandbox. */
  runtime: string
}

/**
 * Builds bwrap's options: own user, PID, IPC, UTS and (when asked) network namespaces, the host's
 * system read-only, the home read-write, a private /tmp; only the runtime's own files of the
 * project are visible. The root itself is made read-only last.
 */
export function bubblewrapArgs(layout: BubblewrapLayout): BubblewrapCommand {
  const { etc, bundle } = layout
  // With a root of its own, bwrap is already in the sandbox's user namespace, as its root.
  const identity = layout.root
    ? ['--cap-drop', 'ALL', ...layout.root.capabilities.flatMap((cap) => ['--cap-add', cap])]
    : ['--unshare-user', '--uid', String(sandboxUser.uid), '--gid', String(sandboxUser.gid)]
  const args = [
    ...identity,
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--hostname',
    sandboxHostname,
    '--die-with-parent',
    ...(layout.network
      ? [
          '--unshare-net',
          '--info-fd',
          String(layout.network.infoFd),
          '--block-fd',
          String(layout.network.blockFd),
        ]
      : []),
  ]
  const own = new Map((layout.root?.system ?? []).map(([host, dest]) => [dest, host]))
  /** A system folder: the sandbox's own copy, writable, where it has one; else the host's, read-only. */
  const systemFolder = (dir: string) => {
    const copy = own.get(dir)
    own.delete(dir)
    return copy ? ['--bind', copy, dir] : ['--ro-bind', dir, dir]
  }
  args.push(...systemFolder('/usr'))
  for (const entry of layout.system.rootEntries) {
    if (entry.symlinkTo) args.push('--symlink', entry.symlinkTo, entry.path)
    else args.push('--ro-bind', entry.path, entry.path)
  }
  args.push(...systemFolder('/etc'))
  for (const [dir, copy] of own) args.push('--bind', copy, dir)
  for (const file of layout.hidden.files) args.push('--ro-bind', etc.emptyFile, file)
  for (const dir of layout.hidden.dirs) args.push('--ro-bind', etc.emptyDir, dir)
  args.push('--ro-bind', etc.passwd, '/etc/passwd', '--ro-bind', etc.group, '/etc/group')
  args.push('--ro-bind', etc.hosts, '/etc/hosts')
  for (const file of layout.system.linkedFiles) args.push('--ro-bind-try', file, file)
  args.push('--proc', '/proc', '--dev', '/dev', '--perms', '1777', '--tmpfs', '/tmp')
  // Folders bwrap makes for mounts are root's alone otherwise: `user` must pass through them.
  args.push('--perms', '0755', '--dir', '/home')
  args.push('--bind', layout.homeDir, sandboxUser.home)
  if (layout.root) {
    args.push('--bind', layout.root.rootHome, '/root')
    args.push('--perms', '0755', '--tmpfs', '/run')
    // The sandbox's own /usr/local/bin, on every user's PATH, where the runtime puts `sudo`
    // (the host's tools there are none of a sandbox's business).
    args.push('--perms', '0755', '--tmpfs', '/usr/local/bin')
  }

  // Node resolves the bundle's bare imports from node_modules beside the folder it sits in.
  const app = join(sandboxRuntimeRoot, 'app')
  args.push('--perms', '0755', '--dir', sandboxRuntimeRoot)
  args.push('--ro-bind', bundle.dir, app)
  for (const pkg of bundle.nativePackages) {
    args.push('--ro-bind', pkg.dir, join(sandboxRuntimeRoot, 'node_modules', pkg.name))
  }
  // The language servers the IDE may start, where it looks for them (read-only, shared by all).
  if (bundle.languageServers) {
    args.push('--perms', '0755', '--dir', dirname(localLanguageServersDir))
    args.push('--ro-bind', bundle.languageServers, localLanguageServersDir)
  }
  args.push('--bind', layout.socketDir, sandboxSocketDir)
  if (layout.oomEvents) args.push('--ro-bind-try', layout.oomEvents, sandboxOomEvents)
  let node = layout.nodePath
  if (!node.startsWith('/usr/')) {
    node = join(sandboxRuntimeRoot, 'bin', 'node')
    args.push('--ro-bind', layout.nodePath, node)
  }
  args.push('--remount-ro', '/', '--chdir', sandboxUser.home)
  return { args, node, runtime: join(app, basename(bundle.file)) }
}
