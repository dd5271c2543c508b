import {
  accessSync,
  closeSync,
  constants,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { mountPoints, runTool, unmount } from '../mounts'

const mib = 1024 * 1024

/**
 * How sandboxes' homes get a size limit: each home is a file system of its own, an ext4 image
 * (a sparse file: it takes on the host only what is written) loop-mounted at the home. A write
 * past the limit fails inside that sandbox with ENOSPC (envd's 507), and every other sandbox and
 * the host keep their space. Loop mounts take root; elsewhere homes are plain folders, unbounded,
 * and `warning` says so.
 */
export interface SandboxDisks {
  readonly kind: 'ext4-image' | 'none'
  readonly warning?: string
  /**
   * Makes `homeDir` a file system of `sizeMB`, kept in an image in `sandboxDir`: made the first
   * time (the home must be empty then), mounted again after a restart; nothing if it is mounted.
   * A home that already holds files without an image stays a plain folder.
   */
  attach(sandboxDir: string, homeDir: string, sizeMB: number): Promise<void>
  /** Unmounts the home (its files stay in the image). */
  detach(homeDir: string): Promise<void>
  /** Whether `homeDir` is a sandbox file system of its own now (its size then is its limit). */
  attached(homeDir: string): boolean
}

/** Where a sandbox's home image lives in its folder. */
export const homeImageName = 'home.ext4'

const tool = (name: string) =>
  ['/usr/sbin', '/sbin', '/usr/bin', '/bin']
    .map((dir) => join(dir, name))
    .find((path) => {
      try {
        accessSync(path, constants.X_OK)
        return true
      } catch {
        return false
      }
    })

/** A sparse file of `sizeMB` with an empty ext4 file system in it, owned by root, nothing reserved. */
async function makeImage(mkfs: string, image: string, sizeMB: number): Promise<void> {
  const fd = openSync(image, 'wx', 0o600)
  try {
    ftruncateSync(fd, sizeMB * mib)
  } finally {
    closeSync(fd)
  }
  // A small journal and inode tables left to be zeroed never (noinit_itable at mount): the image
  // stays as sparse as its files allow.
  await runTool(mkfs, ['-q', '-F', '-m', '0', '-J', 'size=4', '-E', 'lazy_itable_init=1,nodiscard', image])
}

/** Loop-mounts an image; `discard` gives deleted files' space back to the host. */
async function mountImage(image: string, at: string): Promise<void> {
  await runTool('mount', ['-t', 'ext4', '-o', 'loop,discard,noinit_itable,nosuid,nodev', image, at])
}

function imageDisks(mkfs: string): SandboxDisks {
  return {
    kind: 'ext4-image',
    attached: (homeDir) => mountPoints().has(homeDir),
    async attach(sandboxDir, homeDir, sizeMB) {
      if (mountPoints().has(homeDir)) return
      // home.ext4 for the home, system.ext4 for a sandbox's own system layer.
      const image = join(sandboxDir, `${basename(homeDir)}.ext4`)
      let fresh = false
      try {
        accessSync(image)
      } catch {
        if (readdirSync(homeDir).length > 0) return
        await makeImage(mkfs, image, sizeMB)
        fresh = true
      }
      await mountImage(image, homeDir)
      // ext4's own folder would show in the user's home; e2fsck makes it again if ever needed.
      if (fresh) rmSync(join(homeDir, 'lost+found'), { recursive: true, force: true })
    },
    async detach(homeDir) {
      if (mountPoints().has(homeDir)) await unmount(homeDir)
    },
  }
}

const noDisks = (warning: string): SandboxDisks => ({
  kind: 'none',
  warning,
  attached: () => false,
  attach: async () => {},
  detach: async () => {},
})

/** Tries a small image end to end (make, mount, write, unmount) and says how homes will be bounded. */
export async function chooseSandboxDisks(): Promise<SandboxDisks> {
  const unbounded = 'disk space is not limited per sandbox'
  if (process.getuid?.() !== 0)
    return noDisks(`${unbounded}: a file system per sandbox takes root (loop mounts)`)
  const mkfs = tool('mkfs.ext4')
  if (!mkfs) return noDisks(`${unbounded}: mkfs.ext4 (e2fsprogs) is missing`)
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-disk-probe-'))
  const home = join(dir, 'home')
  try {
    mkdirSync(home)
    const disks = imageDisks(mkfs)
    await disks.attach(dir, home, 16)
    const mounted = disks.attached(home)
    await disks.detach(home)
    return mounted ? disks : noDisks(`${unbounded}: the probe image did not mount`)
  } catch (err) {
    return noDisks(`${unbounded}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
