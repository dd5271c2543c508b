import { chmodSync, chownSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { SandboxDisks } from '../disk/sandboxDisks'
import type { SandboxRoot } from './launchInBubblewrap'
import type { LaunchSpec } from './sandboxLauncher'
import { grantPassage, openSandboxUserNamespace, ownTree, sandboxHostIds } from './sandboxUserNamespace'
import { mountSandboxSystem, type SandboxSystem, type SystemBase } from './writableSystem'

/** What gives each sandbox its root: where homes are, the system's base if there is one, the disks. */
export interface SandboxRootSetup {
  /** The folder every sandbox's home is under; a sandbox's root passes through it to its own. */
  homesRoot: string
  /** The host's system as the sandboxes' root owns it; without it, sandboxes get the host's, read-only. */
  systemBase?: SystemBase
  /** Bounds each sandbox's own system layer as its home is. */
  disks?: Pick<SandboxDisks, 'kind' | 'attach' | 'detach'>
}

/**
 * Gives one sandbox its root: root's home, its home (and `socketDir`) handed to its host ids, its
 * own system where there is a base, and the user namespace bwrap enters.
 */
export async function prepareSandboxRoot(
  spec: LaunchSpec,
  socketDir: string,
  setup: SandboxRootSetup,
): Promise<SandboxRoot> {
  // Root's own home beside the sandbox's home, kept and removed with it.
  const rootHome = join(dirname(spec.homeDir), 'root')
  mkdirSync(rootHome, { recursive: true, mode: 0o700 })
  chownSync(rootHome, sandboxHostIds.root, sandboxHostIds.root)
  chownSync(socketDir, sandboxHostIds.root, sandboxHostIds.root)
  ownTree(spec.homeDir, sandboxHostIds.user, sandboxHostIds.user)
  chmodSync(spec.homeDir, 0o700)
  grantPassage(dirname(spec.homeDir), setup.homesRoot)
  const ownSystem = setup.systemBase ? await mountOwnSystem(setup.systemBase, spec, setup.disks) : undefined
  const ns = await openSandboxUserNamespace().catch(async (err) => {
    await ownSystem?.unmount()
    throw err
  })
  return { ns, rootHome, ownSystem }
}

/** Its own file system where homes have theirs: root's changes count against a limit too. */
async function mountOwnSystem(
  base: SystemBase,
  spec: LaunchSpec,
  disks: SandboxRootSetup['disks'],
): Promise<SandboxSystem> {
  const systemDir = join(dirname(spec.homeDir), 'system')
  mkdirSync(systemDir, { recursive: true })
  if (spec.limits.diskMB && disks && disks.kind !== 'none')
    await disks.attach(dirname(spec.homeDir), systemDir, spec.limits.diskMB)
  return mountSandboxSystem(base, systemDir, async () => {
    await disks?.detach(systemDir)
  })
}
