import { lstatSync, readlinkSync, realpathSync } from 'node:fs'

/** A top-level system folder of the host: a real folder, or a symlink into /usr (merged /usr). */
export interface RootEntry {
  path: string
  symlinkTo?: string
}

/** What of the host's system a sandbox needs besides /usr and /etc. */
export interface HostSystemPaths {
  rootEntries: RootEntry[]
  /** Host files outside /usr and /etc that /etc links to (a resolver's resolv.conf), bound as is. */
  linkedFiles: string[]
}

const rootNames = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']

/** Reads how the host lays out /bin, /lib and friends, and where /etc/resolv.conf really lives. */
export function findHostSystemPaths(): HostSystemPaths {
  const rootEntries: RootEntry[] = []
  for (const path of rootNames) {
    try {
      const stat = lstatSync(path)
      if (stat.isSymbolicLink()) rootEntries.push({ path, symlinkTo: readlinkSync(path) })
      else if (stat.isDirectory()) rootEntries.push({ path })
    } catch {}
  }
  const linkedFiles: string[] = []
  try {
    const resolv = realpathSync('/etc/resolv.conf')
    if (!resolv.startsWith('/etc/') && !resolv.startsWith('/usr/')) linkedFiles.push(resolv)
  } catch {}
  return { rootEntries, linkedFiles }
}

/**
 * bwrap's options for the least system a command runs in: the host's /usr read-only, the root's
 * links and folders into it, /proc and /dev. What the probes try a sandbox with.
 */
export function minimalSystemArgs(rootEntries: RootEntry[]): string[] {
  return [
    '--ro-bind',
    '/usr',
    '/usr',
    ...rootEntries.flatMap((e) =>
      e.symlinkTo ? ['--symlink', e.symlinkTo, e.path] : ['--ro-bind', e.path, e.path],
    ),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
  ]
}
