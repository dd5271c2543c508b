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
    /**
     * Host folder that becomes `/`, writable: the sandbox's own root, holding all it writes outside
     * its system folders and home (`/opt`, `/srv`, `/0`). It holds the root's links into /usr
     * already (see sandboxRootLayer.ts). Without it, `/` is bwrap's own and read-only.
     */
    ownRoot?: string
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

/** bwrap's options that take no argument, and those whose one argument is not a path in the sandbox. */
const flagOptions = new Set([
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-net',
  '--unshare-user',
  '--die-with-parent',
])
const valueOptions = new Set([
  '--uid',
  '--gid',
  '--hostname',
  '--info-fd',
  '--block-fd',
  '--perms',
  '--cap-add',
  '--cap-drop',
  '--chdir',
])
/** Options that make something at their last argument (a path in the sandbox), by their number of arguments. */
const makingOptions = new Map([
  ['--bind', 2],
  ['--ro-bind', 2],
  ['--ro-bind-try', 2],
  ['--symlink', 2],
  ['--dir', 1],
  ['--tmpfs', 1],
  ['--proc', 1],
  ['--dev', 1],
  ['--remount-ro', 1],
])

/**
 * The paths in the sandbox at which `args` (bubblewrapArgs' options) make a mount, a folder or a
 * link, in order. bwrap follows links on its way to them: where the sandbox's root may have made
 * links (its own root and system), the launcher checks these paths first. Throws on an option it
 * does not know, so a new one cannot slip past that check.
 */
export function bubblewrapMountPoints(args: string[]): string[] {
  const points: string[] = []
  for (let i = 0; i < args.length; i++) {
    const option = args[i] as string
    const arity = makingOptions.get(option)
    if (arity !== undefined) {
      points.push(args[i + arity] as string)
      i += arity
    } else if (valueOptions.has(option)) i += 1
    else if (!flagOptions.has(option)) throw new Error(`bubblewrapMountPoints: unknown option ${option}`)
  }
  return points
}

/**
 * Builds bwrap's options: own user, PID, IPC, UTS and (when asked) network namespaces, the host's
 * system read-only, the home read-write, a private /tmp; only the runtime's own files of the
 * project are visible. The root itself is the sandbox's own where it has one, else made read-only
 * last.
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
  const ownRoot = layout.root?.ownRoot
  // Its own root first: everything after is mounted in it.
  if (ownRoot) args.push('--bind', ownRoot, '/')
  const own = new Map((layout.root?.system ?? []).map(([host, dest]) => [dest, host]))
  /** A system folder: the sandbox's own copy, writable, where it has one; else the host's, read-only. */
  const systemFolder = (dir: string) => {
    const copy = own.get(dir)
    own.delete(dir)
    return copy ? ['--bind', copy, dir] : ['--ro-bind', dir, dir]
  }
  args.push(...systemFolder('/usr'))
  for (const entry of layout.system.rootEntries) {
    // An own root keeps its links (bwrap 0.8 will not make a link that is there already).
    if (entry.symlinkTo) {
      if (!ownRoot) args.push('--symlink', entry.symlinkTo, entry.path)
    } else args.push('--ro-bind', entry.path, entry.path)
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
  if (!ownRoot) args.push('--remount-ro', '/')
  args.push('--chdir', sandboxUser.home)
  return { args, node, runtime: join(app, basename(bundle.file)) }
}
