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
