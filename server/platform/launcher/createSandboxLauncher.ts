import { mkdirSync } from 'node:fs'
import type { SandboxDisks } from '../disk/sandboxDisks'
import { bubblewrapAsUserLauncher } from './bubblewrapAsUserLauncher'
import { prepareBubblewrapHost } from './bubblewrapHost'
import { bubblewrapWithRootLauncher } from './bubblewrapWithRootLauncher'
import type { FreezerPreference } from './chooseFreezer'
import { findHostSystemPaths } from './hostSystemPaths'
import { prepareLauncherBasics } from './launcherBasics'
import { probeBubblewrap } from './probeBubblewrap'
import type { SandboxLauncher } from './sandboxLauncher'
import { probeRootInSandbox } from './sandboxUserNamespace'
import { unisolatedLauncher } from './unisolatedLauncher'

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

/**
 * Prepares to start sandbox runtimes: builds the runtime bundle if stale, finds out which freezer
 * and limits work here and whether bubblewrap does, with a root inside or not, and picks the
 * launch strategy that isolates most.
 */
export async function createSandboxLauncher(options: SandboxLauncherOptions): Promise<SandboxLauncher> {
  const log = options.log ?? (() => {})
  const bwrapPath = options.bwrapPath ?? '/usr/bin/bwrap'
  mkdirSync(options.stateDir, { recursive: true })
  const system = findHostSystemPaths()
  const [basics, probe] = await Promise.all([
    prepareLauncherBasics(options.projectRoot, {
      log,
      freezer: options.freezer ?? 'auto',
      startTimeoutMs: options.startTimeoutMs ?? 30_000,
    }),
    options.isolation === 'none'
      ? Promise.resolve({ ok: false as const, reason: 'isolation is turned off by configuration' })
      : probeBubblewrap(bwrapPath, system.rootEntries),
  ])
  if (!probe.ok) return unisolatedLauncher(basics, probe.reason)

  const host = prepareBubblewrapHost(
    basics,
    {
      bwrapPath,
      system,
      homesRoot: options.homesRoot,
      slirpPath: options.slirpPath ?? '/usr/bin/slirp4netns',
    },
    options.stateDir,
  )
  const rootProbe = await probeRootInSandbox(bwrapPath, system.rootEntries, [
    [host.etc.passwd, '/etc/passwd'],
    [host.homesRoot, '/opt/homes'],
    [(await basics.currentBundle()).dir, '/opt/app'],
    [basics.nodePath, '/opt/node'],
  ])
  return rootProbe.ok
    ? bubblewrapWithRootLauncher(host, options.stateDir, options.disks)
    : bubblewrapAsUserLauncher(host, rootProbe.reason)
}
