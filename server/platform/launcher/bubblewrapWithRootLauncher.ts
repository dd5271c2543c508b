import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { announceBubblewrap, type BubblewrapHost } from './bubblewrapHost'
import { launchInBubblewrap } from './launchInBubblewrap'
import { prepareSandboxRoot, type SandboxRootSetup } from './prepareSandboxRoot'
import type { SandboxLauncher } from './sandboxLauncher'
import { hiddenSystemFiles, mountSystemBase, type SystemBase } from './writableSystem'

/** Bubblewrap as root of a user namespace: where the platform may map ids, so sandboxes get root and sudo. */
export async function bubblewrapWithRootLauncher(
  host: BubblewrapHost,
  stateDir: string,
  disks: SandboxRootSetup['disks'],
): Promise<SandboxLauncher> {
  // With a root inside, each sandbox's system is its own copy of the host's (changes kept per sandbox).
  let systemBase: SystemBase | undefined
  let systemWarning: string | undefined
  try {
    systemBase = await mountSystemBase(join(stateDir, 'system-base'))
  } catch (err) {
    systemWarning = `each sandbox's system is the host's, read-only: no idmapped mounts here (${err instanceof Error ? err.message : String(err)})`
    host.log(`launcher: ${systemWarning}`)
  }
  const { etcHidden } = host
  const hidden = systemBase
    ? { ...etcHidden, files: [...etcHidden.files, ...hiddenSystemFiles.filter((file) => existsSync(file))] }
    : etcHidden
  const setup: SandboxRootSetup = { homesRoot: host.homesRoot, systemBase, disks }
  return {
    ...announceBubblewrap(host),
    system: systemBase ? 'own-copy' : 'host-read-only',
    ...(systemWarning ? { systemWarning } : {}),
    root: 'sudo',
    release: async () => {
      await systemBase?.release()
      host.releaseSockets()
    },
    launch: (spec) =>
      launchInBubblewrap(host, hidden, spec, (socketDir) => prepareSandboxRoot(spec, socketDir, setup)),
  }
}
