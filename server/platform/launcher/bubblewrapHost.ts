import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { readRecordFile, writeRecordFile } from '../recordFile'
import type { HostSystemPaths } from './hostSystemPaths'
import type { LauncherBasics } from './launcherBasics'
import { type SandboxEtcFiles, writeSandboxEtcFiles } from './sandboxEtcFiles'
import type { SandboxLauncher } from './sandboxLauncher'
import { grantPassage } from './sandboxUserNamespace'
import { hasSlirp } from './slirpNetwork'
import { findUnreadableEtcEntries, type UnreadableEntries } from './unreadableEtcEntries'

/** What both bubblewrap strategies build sandboxes with: the host's layout, /etc files, sockets, network. */
export interface BubblewrapHost extends LauncherBasics {
  bwrapPath: string
  system: HostSystemPaths
  /** A short folder holding the sandboxes' /etc files and each one's socket folder. */
  socketsRoot: string
  etc: SandboxEtcFiles
  /** Host secrets under /etc, hidden behind blanks. */
  etcHidden: UnreadableEntries
  /** The folder every sandbox's home is under. */
  homesRoot: string
  slirpPath: string
  /** Whether slirp4netns is here to give sandboxes outbound access. */
  outbound: boolean
  /** Removes the sockets' folder, once no sandbox runs. */
  releaseSockets(): void
}

const socketsPrefix = 'sandbox-sockets-'

/**
 * A new folder for the sandboxes' /etc files and sockets, its path kept in `stateDir`, so that a
 * start after a crash removes the folder the crashed stack made (a clean stop removes its own).
 */
function makeSocketsRoot(stateDir: string): string {
  const record = join(stateDir, 'sockets-folder')
  const previous = readRecordFile(record)?.trim()
  if (previous && dirname(previous) === tmpdir() && basename(previous).startsWith(socketsPrefix))
    rmSync(previous, { recursive: true, force: true })
  const socketsRoot = mkdtempSync(join(tmpdir(), socketsPrefix))
  writeRecordFile(record, `${socketsRoot}\n`)
  return socketsRoot
}

/** Writes the sandboxes' /etc files in a folder for their sockets; makes their homes' folder passable. */
export function prepareBubblewrapHost(
  basics: LauncherBasics,
  where: Pick<BubblewrapHost, 'bwrapPath' | 'system' | 'homesRoot' | 'slirpPath'>,
  /** The launcher's own folder in the data folder. */
  stateDir: string,
): BubblewrapHost {
  // Socket paths must stay under ~108 bytes, whatever the data folder's path: a short folder.
  // Its files are the sandboxes' /etc files and sockets, nothing secret: a sandbox's root (an
  // unprivileged host id) must pass through it to them, as it cannot through the data folder.
  const socketsRoot = makeSocketsRoot(stateDir)
  chmodSync(socketsRoot, 0o711)
  const etc = writeSandboxEtcFiles(socketsRoot)
  // Sandboxes' folders: passable, not listable (a sandbox's root reaches its own home by path).
  mkdirSync(where.homesRoot, { recursive: true })
  chmodSync(where.homesRoot, 0o711)
  grantPassage(where.homesRoot, dirname(where.homesRoot))
  return {
    ...basics,
    ...where,
    socketsRoot,
    etc,
    etcHidden: findUnreadableEtcEntries(),
    outbound: hasSlirp(where.slirpPath),
    releaseSockets: () => rmSync(socketsRoot, { recursive: true, force: true }),
  }
}

/** Logs how bubblewrap isolates sandboxes here, after a strategy's own warnings; returns what it reports. */
export function announceBubblewrap(
  host: BubblewrapHost,
): Pick<SandboxLauncher, 'isolation' | 'network' | 'limits' | 'freezer'> {
  host.log(
    `launcher: sandboxes isolated by bubblewrap, each in a network of its own ` +
      `${host.outbound ? 'with outbound access through slirp4netns' : "with no outbound access (install Debian's 'slirp4netns' for it)"}, ` +
      `paused by the ${host.freezer.kind} freezer`,
  )
  return {
    isolation: 'bubblewrap',
    network: host.outbound ? 'own' : 'own-offline',
    limits: host.limits,
    freezer: host.freezer.kind,
  }
}
