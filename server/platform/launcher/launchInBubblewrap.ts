import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { envdPort } from '../../../src/contract/runtimeExtensions'
import { runtimeNodeFlags } from '../../nodeFlags'
import {
  bubblewrapArgs,
  bubblewrapMountPoints,
  sandboxOomEvents,
  sandboxSocketDir,
  sandboxSudoSocket,
} from './bubblewrapArgs'
import type { BubblewrapHost } from './bubblewrapHost'
import { launchRuntime, sandboxBlockFd, sandboxInfoFd } from './launchRuntime'
import { runtimeFlags, runtimeStdin, sandboxWritesJournal } from './runtimeInvocation'
import { sandboxUser } from './sandboxEtcFiles'
import type { LaunchedSandbox, LaunchSpec } from './sandboxLauncher'
import { settleRootLayer } from './sandboxRootLayer'
import {
  asRootIn,
  nsenterPath,
  type SandboxUserNamespace,
  sandboxRootCapabilities,
} from './sandboxUserNamespace'
import { attachSlirp } from './slirpNetwork'
import type { UnreadableEntries } from './unreadableEtcEntries'
import type { SandboxSystem } from './writableSystem'

/** The runtime's socket in its socket folder. */
const runtimeSocketName = 'envd.sock'

/** One sandbox's root of its own, ready for bwrap. */
export interface SandboxRoot {
  /** The user namespace bwrap enters as its root; held open until the sandbox is in it. */
  ns: SandboxUserNamespace
  /** Host folder that becomes /root. */
  rootHome: string
  /** Its own writable system, where the launcher has a base for one. */
  ownSystem?: SandboxSystem
}

/**
 * Starts one sandbox's runtime in bubblewrap, in a network of its own (outbound through
 * slirp4netns where it is here), with `hidden` behind blanks; `prepareRoot`, called once the
 * sandbox's folders exist, gives it a root of its own. Its socket folder and system go with it.
 */
export async function launchInBubblewrap(
  host: BubblewrapHost,
  hidden: UnreadableEntries,
  spec: LaunchSpec,
  prepareRoot?: (socketDir: string) => Promise<SandboxRoot>,
): Promise<LaunchedSandbox> {
  const { log, limits } = host
  mkdirSync(spec.homeDir, { recursive: true })
  const socketDir = join(host.socketsRoot, spec.id)
  rmSync(socketDir, { recursive: true, force: true })
  mkdirSync(socketDir, { mode: 0o700 })
  const oomEvents = limits.oomEvents?.(spec.id)
  const root = await prepareRoot?.(socketDir)
  const ownSystem = root?.ownSystem
  const bwrap = bubblewrapArgs({
    homeDir: spec.homeDir,
    system: host.system,
    etc: host.etc,
    hidden,
    bundle: await host.currentBundle(),
    nodePath: host.nodePath,
    socketDir,
    network: { infoFd: sandboxInfoFd, blockFd: sandboxBlockFd },
    ...(oomEvents ? { oomEvents } : {}),
    ...(root
      ? {
          root: {
            capabilities: sandboxRootCapabilities,
            rootHome: root.rootHome,
            ...(ownSystem ? { system: ownSystem.binds, ownRoot: ownSystem.root } : {}),
          },
        }
      : {}),
  })
  if (ownSystem) {
    try {
      settleRootLayer(ownSystem.layers, bubblewrapMountPoints(bwrap.args), host.system.rootEntries)
    } catch (err) {
      await ownSystem.unmount()
      root?.ns.release()
      throw err
    }
  }
  // Options through fd 4, so the sandbox's init shows no host paths; the command stays in argv.
  const bwrapCommand = [
    '--args',
    '4',
    '--',
    bwrap.node,
    ...runtimeNodeFlags,
    bwrap.runtime,
    ...runtimeFlags(sandboxUser.name, sandboxUser.home, {
      port: envdPort,
      socket: join(sandboxSocketDir, runtimeSocketName),
      ...(oomEvents ? { oomEvents: sandboxOomEvents } : {}),
      ...(root ? { sudoSocket: sandboxSudoSocket } : {}),
      ...(ownSystem ? { writesJournal: sandboxWritesJournal } : {}),
    }),
  ]
  const launching = launchRuntime({
    id: spec.id,
    command: root ? nsenterPath : host.bwrapPath,
    args: root ? asRootIn(root.ns, host.bwrapPath, bwrapCommand) : bwrapCommand,
    argsOnFd4: bwrap.args,
    stdin: runtimeStdin(spec),
    freezer: host.freezer,
    scope: 'pid-namespace',
    log,
    startTimeoutMs: host.startTimeoutMs,
    limits: { enforcer: limits, values: spec.limits },
    socketPath: join(socketDir, runtimeSocketName),
    network: async (initPid) => {
      if (!host.outbound || spec.offline) return () => {}
      return attachSlirp(initPid, (line) => log(`sandbox ${spec.id}: ${line}`), host.slirpPath)
    },
  })
  // Once the sandbox is in the namespace (or failed to start), it needs no holder.
  const launched = await launching
    .catch(async (err) => {
      await ownSystem?.unmount()
      throw err
    })
    .finally(() => root?.ns.release())
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
}
