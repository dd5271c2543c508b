import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { dirname, join } from 'node:path'
import { envdPort } from '../../../src/contract/runtimeExtensions'
import { nodeFlags } from '../../nodeFlags'
import type { SandboxDisks } from '../disk/sandboxDisks'
import { bubblewrapArgs, sandboxOomEvents, sandboxSocketDir, sandboxSudoSocket } from './bubblewrapArgs'
import { chooseFreezer, type FreezerPreference } from './chooseFreezer'
import { findHostSystemPaths } from './hostSystemPaths'
import { launchRuntime, sandboxBlockFd, sandboxInfoFd } from './launchRuntime'
import { probeBubblewrap } from './probeBubblewrap'
import { ensureRuntimeBundle } from './runtimeBundle'
import { runtimeFlags, runtimeStdin } from './runtimeInvocation'
import { sandboxUser, writeSandboxEtcFiles } from './sandboxEtcFiles'
import type { LaunchSpec, SandboxLauncher } from './sandboxLauncher'
import { chooseLimits } from './sandboxLimits'
import {
  asRootIn,
  grantPassage,
  nsenterPath,
  openSandboxUserNamespace,
  ownTree,
  probeRootInSandbox,
  type SandboxUserNamespace,
  sandboxHostIds,
  sandboxRootCapabilities,
} from './sandboxUserNamespace'
import { attachSlirp, hasSlirp } from './slirpNetwork'
import { findUnreadableEtcEntries } from './unreadableEtcEntries'
import {
  hiddenSystemFiles,
  mountSandboxSystem,
  mountSystemBase,
  type SandboxSystem,
  type SystemBase,
} from './writableSystem'

/** How to set up the launcher; everything but the two folders has a sensible default. */
export interface SandboxLauncherOptions {
  /** The repository root: where the runtime bundle and its native packages are. */
  projectRoot: string
  /** A folder the launcher owns for its generated files (the sandbox's passwd, group, hosts). */
  stateDir: string
  /**
   * The folder every sandbox's home is under (`<data>/sandboxes`): a sandbox's root, an
   * unprivileged host id, is let through it and the data folder to its own home (search only:
   * no listing, and homes are their owners' alone).
   */
  homesRoot: string
  /** Bounds each sandbox's own system layer as its home is (an image of `--sandbox-disk` MB). */
  disks?: Pick<SandboxDisks, 'kind' | 'attach' | 'detach'>
  /** One line per event, already prefixed with the sandbox id; never holds a token. */
  log?: (line: string) => void
  /** 'none' runs runtimes straight on the host; 'auto' uses bubblewrap when it works here. */
  isolation?: 'auto' | 'none'
  /** How pause freezes; 'auto' takes the best that works here. For tests. */
  freezer?: FreezerPreference
  /** The bubblewrap binary (default /usr/bin/bwrap). For tests. */
  bwrapPath?: string
  /** How long a runtime may take to listen (default 30 s). */
  startTimeoutMs?: number
  /** The slirp4netns binary for sandboxes' outbound network (default /usr/bin/slirp4netns). For tests. */
  slirpPath?: string
}

/** The runtime's socket in its socket folder. */
const runtimeSocketName = 'envd.sock'

/** Kills the runtime if the platform dies, as bwrap's --die-with-parent does for sandboxes. */
const setprivPath = '/usr/bin/setpriv'

/**
 * Prepares to start sandbox runtimes: builds the runtime bundle if stale, finds out whether
 * bubblewrap works and which freezer does, and writes the sandbox's /etc files.
 */
export async function createSandboxLauncher(options: SandboxLauncherOptions): Promise<SandboxLauncher> {
  const log = options.log ?? (() => {})
  const bwrapPath = options.bwrapPath ?? '/usr/bin/bwrap'
  mkdirSync(options.stateDir, { recursive: true })
  const system = findHostSystemPaths()
  const [firstBundle, probe, { freezer, passedOver }] = await Promise.all([
    ensureRuntimeBundle(options.projectRoot),
    options.isolation === 'none'
      ? Promise.resolve({ ok: false as const, reason: 'isolation is turned off by configuration' })
      : probeBubblewrap(bwrapPath, system.rootEntries),
    chooseFreezer(options.freezer ?? 'auto'),
  ])
  for (const reason of passedOver) log(`launcher: freezer ${reason}`)
  const limits = await chooseLimits(freezer.kind)
  log(
    limits.kind === 'none'
      ? `launcher: ${limits.warning}`
      : `launcher: sandboxes bounded by ${limits.kind} (${limits.enforced.join(', ')})${limits.warning ? `; ${limits.warning}` : ''}`,
  )
  const nodePath = realpathSync(process.execPath)
  let bundle = firstBundle
  // `vite build` empties dist/, bundle included: build it again rather than fail a launch.
  const currentBundle = async () => {
    if (!existsSync(bundle.file)) bundle = await ensureRuntimeBundle(options.projectRoot)
    return bundle
  }
  const startTimeoutMs = options.startTimeoutMs ?? 30_000

  if (!probe.ok) {
    const me = userInfo().username
    const warning = `sandboxes are NOT isolated: ${probe.reason}; each runtime runs directly on this machine as '${me}' and can reach everything '${me}' can`
    log(`launcher: ${warning}`)
    const node = [nodePath, ...nodeFlags]
    const runner = existsSync(setprivPath) ? [setprivPath, '--pdeathsig', 'KILL', '--', ...node] : node
    return {
      isolation: 'none',
      network: 'host',
      system: 'host',
      root: 'none',
      limits,
      freezer: freezer.kind,
      warning,
      launch: async (spec: LaunchSpec) => {
        mkdirSync(spec.homeDir, { recursive: true })
        const { file } = await currentBundle()
        const oomEvents = limits.oomEvents?.(spec.id)
        const [command = nodePath, ...args] = [
          ...runner,
          file,
          ...runtimeFlags(me, spec.homeDir, { port: 0, ...(oomEvents ? { oomEvents } : {}) }),
        ]
        return launchRuntime({
          id: spec.id,
          command,
          args,
          stdin: runtimeStdin(spec),
          freezer,
          scope: 'descendants',
          log,
          startTimeoutMs,
          limits: { enforcer: limits, values: spec.limits },
        })
      },
    }
  }

  // Socket paths must stay under ~108 bytes, whatever the data folder's path: a short folder.
  // Its files are the sandboxes' /etc files and sockets, nothing secret: a sandbox's root (an
  // unprivileged host id) must pass through it to them, as it cannot through the data folder.
  const socketsRoot = mkdtempSync(join(tmpdir(), 'sandbox-sockets-'))
  chmodSync(socketsRoot, 0o711)
  const etc = writeSandboxEtcFiles(socketsRoot)
  // Sandboxes' folders: passable, not listable (a sandbox's root reaches its own home by path).
  mkdirSync(options.homesRoot, { recursive: true })
  chmodSync(options.homesRoot, 0o711)
  grantPassage(options.homesRoot, dirname(options.homesRoot))
  const rootProbe = await probeRootInSandbox(bwrapPath, system.rootEntries, [
    [etc.passwd, '/etc/passwd'],
    [options.homesRoot, '/opt/homes'],
    [bundle.dir, '/opt/app'],
    [nodePath, '/opt/node'],
  ])
  const rootWarning = rootProbe.ok ? undefined : `sandboxes have no root and no sudo: ${rootProbe.reason}`
  if (rootWarning) log(`launcher: ${rootWarning}`)
  // With a root inside, each sandbox's system is its own copy of the host's (changes kept per sandbox).
  let systemBase: SystemBase | undefined
  let systemWarning: string | undefined
  if (rootProbe.ok) {
    try {
      systemBase = await mountSystemBase(join(options.stateDir, 'system-base'))
    } catch (err) {
      systemWarning = `each sandbox's system is the host's, read-only: no idmapped mounts here (${err instanceof Error ? err.message : String(err)})`
      log(`launcher: ${systemWarning}`)
    }
  }
  const etcHidden = findUnreadableEtcEntries()
  const hidden = systemBase
    ? { ...etcHidden, files: [...etcHidden.files, ...hiddenSystemFiles.filter((file) => existsSync(file))] }
    : etcHidden
  const slirp = options.slirpPath ?? '/usr/bin/slirp4netns'
  const outbound = hasSlirp(slirp)
  log(
    `launcher: sandboxes isolated by bubblewrap, each in a network of its own ` +
      `${outbound ? 'with outbound access through slirp4netns' : "with no outbound access (install Debian's 'slirp4netns' for it)"}, ` +
      `paused by the ${freezer.kind} freezer`,
  )
  return {
    isolation: 'bubblewrap',
    network: outbound ? 'own' : 'own-offline',
    system: systemBase ? 'own-copy' : 'host-read-only',
    ...(systemWarning ? { systemWarning } : {}),
    root: rootProbe.ok ? 'sudo' : 'none',
    ...(rootWarning ? { rootWarning } : {}),
    limits,
    freezer: freezer.kind,
    release: async () => {
      await systemBase?.release()
    },
    launch: async (spec: LaunchSpec) => {
      mkdirSync(spec.homeDir, { recursive: true })
      const socketDir = join(socketsRoot, spec.id)
      rmSync(socketDir, { recursive: true, force: true })
      mkdirSync(socketDir, { mode: 0o700 })
      const oomEvents = limits.oomEvents?.(spec.id)
      // Root's own home beside the sandbox's home, kept and removed with it.
      const rootHome = join(dirname(spec.homeDir), 'root')
      let ns: SandboxUserNamespace | undefined
      let ownSystem: SandboxSystem | undefined
      if (rootProbe.ok) {
        mkdirSync(rootHome, { recursive: true, mode: 0o700 })
        chownSync(rootHome, sandboxHostIds.root, sandboxHostIds.root)
        chownSync(socketDir, sandboxHostIds.root, sandboxHostIds.root)
        ownTree(spec.homeDir, sandboxHostIds.user, sandboxHostIds.user)
        chmodSync(spec.homeDir, 0o700)
        grantPassage(dirname(spec.homeDir), options.homesRoot)
        if (systemBase) {
          // Its own file system where homes have theirs: root's changes count against a limit too.
          const systemDir = join(dirname(spec.homeDir), 'system')
          mkdirSync(systemDir, { recursive: true })
          const disks = options.disks
          if (spec.limits.diskMB && disks && disks.kind !== 'none')
            await disks.attach(dirname(spec.homeDir), systemDir, spec.limits.diskMB)
          ownSystem = await mountSandboxSystem(systemBase, systemDir, async () => {
            await disks?.detach(systemDir)
          })
        }
        ns = await openSandboxUserNamespace().catch(async (err) => {
          await ownSystem?.unmount()
          throw err
        })
      }
      const bwrap = bubblewrapArgs({
        homeDir: spec.homeDir,
        system,
        etc,
        hidden,
        bundle: await currentBundle(),
        nodePath,
        socketDir,
        network: { infoFd: sandboxInfoFd, blockFd: sandboxBlockFd },
        ...(oomEvents ? { oomEvents } : {}),
        ...(ns
          ? {
              root: {
                capabilities: sandboxRootCapabilities,
                rootHome,
                ...(ownSystem ? { system: ownSystem.binds } : {}),
              },
            }
          : {}),
      })
      // Options through fd 4, so the sandbox's init shows no host paths; the command stays in argv.
      const bwrapCommand = [
        '--args',
        '4',
        '--',
        bwrap.node,
        ...nodeFlags,
        bwrap.runtime,
        ...runtimeFlags(sandboxUser.name, sandboxUser.home, {
          port: envdPort,
          socket: join(sandboxSocketDir, runtimeSocketName),
          ...(oomEvents ? { oomEvents: sandboxOomEvents } : {}),
          ...(ns ? { sudoSocket: sandboxSudoSocket } : {}),
        }),
      ]
      const launching = launchRuntime({
        id: spec.id,
        command: ns ? nsenterPath : bwrapPath,
        args: ns ? asRootIn(ns, bwrapPath, bwrapCommand) : bwrapCommand,
        argsOnFd4: bwrap.args,
        stdin: runtimeStdin(spec),
        freezer,
        scope: 'pid-namespace',
        log,
        startTimeoutMs,
        limits: { enforcer: limits, values: spec.limits },
        socketPath: join(socketDir, runtimeSocketName),
        network: async (initPid) => {
          if (!outbound) return () => {}
          return attachSlirp(initPid, (line) => log(`sandbox ${spec.id}: ${line}`), slirp)
        },
      })
      // Once the sandbox is in the namespace (or failed to start), it needs no holder.
      const launched = await launching
        .catch(async (err) => {
          await ownSystem?.unmount()
          throw err
        })
        .finally(() => ns?.release())
      // Gone means gone with all it held: its socket's folder, and the system's layers before
      // its folder is removed. Whoever waits on `exited` (a kill, the manager's dispose) waits for
      // both, so nothing removes a folder while a layer is still mounted in it.
      const released = launched.exited.then(async () => {
        rmSync(socketDir, { recursive: true, force: true })
        await ownSystem?.unmount()
      })
      return {
        ...launched,
        exited: released,
        kill: async () => {
          await launched.kill()
          await released
        },
      }
    },
  }
}
