import { execFile } from 'node:child_process'
import { access, constants } from 'node:fs/promises'
import { minimalSystemArgs, type RootEntry } from './hostSystemPaths'

/** Whether bubblewrap can build a sandbox on this machine, and why not. */
export type BubblewrapProbe = { ok: true } | { ok: false; reason: string }

/**
 * Runs one trivial sandbox with the namespaces real ones use: a binary that exists may still be
 * refused user namespaces (sysctls, AppArmor, containers), which only trying reveals.
 */
export async function probeBubblewrap(bwrapPath: string, rootEntries: RootEntry[]): Promise<BubblewrapProbe> {
  try {
    await access(bwrapPath, constants.X_OK)
  } catch {
    return { ok: false, reason: `${bwrapPath} is not installed (Debian package 'bubblewrap')` }
  }
  const args = [
    '--unshare-user',
    '--uid',
    '1000',
    '--gid',
    '1000',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-net',
    '--die-with-parent',
    ...minimalSystemArgs(rootEntries),
    '--tmpfs',
    '/tmp',
    '--',
    '/usr/bin/true',
  ]
  return new Promise((resolve) => {
    execFile(bwrapPath, args, { timeout: 10_000, env: { PATH: '/usr/bin:/bin' } }, (err, _out, stderr) => {
      if (!err) resolve({ ok: true })
      else
        resolve({
          ok: false,
          reason: `${bwrapPath} cannot create a sandbox here: ${stderr.trim() || err.message}`,
        })
    })
  })
}
