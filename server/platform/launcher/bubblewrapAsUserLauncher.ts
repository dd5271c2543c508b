import { announceBubblewrap, type BubblewrapHost } from './bubblewrapHost'
import { launchInBubblewrap } from './launchInBubblewrap'
import type { SandboxLauncher } from './sandboxLauncher'

/** Bubblewrap, everything inside as `user`: where sandboxes cannot have a root of their own (`reason`). */
export function bubblewrapAsUserLauncher(host: BubblewrapHost, reason: string): SandboxLauncher {
  const rootWarning = `sandboxes have no root and no sudo: ${reason}`
  host.log(`launcher: ${rootWarning}`)
  return {
    ...announceBubblewrap(host),
    system: 'host-read-only',
    root: 'none',
    rootWarning,
    release: async () => host.releaseSockets(),
    launch: (spec) => launchInBubblewrap(host, host.etcHidden, spec),
  }
}
