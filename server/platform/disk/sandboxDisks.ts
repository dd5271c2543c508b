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
 * How sandboxes' homes (and, with root inside, their own system layers) get a size limit: each is
 * a file system of its own, an ext4 image (a sparse file: it takes on the host only what is
 * written) loop-mounted at the folder. A write past the limit fails inside that sandbox with
 * ENOSPC (envd's 507), and every other sandbox and the host keep their space. Loop mounts take
 * root; elsewhere homes are plain folders, unbounded, and `warning` says so.
 */
export interface SandboxDisks {
  readonly kind: 'ext4-image' | 'none'
  readonly warning?: string
  /**
   * Makes `dir` (a sandbox's home or system folder) a file system of `sizeMB`, kept in an image in
   * `sandboxDir` (see `imagePath`): made the first time (the folder must be empty then), mounted
   * again after a restart; nothing if it is mounted. A folder that already holds files without an
   * image stays a plain folder.
   */
  attach(sandboxDir: string, dir: string, sizeMB: number): Promise<void>
  /** Unmounts the folder (its files stay in the image). */
  detach(dir: string): Promise<void>
  /** Whether `dir` is a sandbox file system of its own now (its size then is its limit). */
  attached(dir: string): boolean
}

/** Where the image of a sandbox's folder lives: `home.ext4` for its home, `system.ext4` for its system. */
export const imagePath = (sandboxDir: string, dir: string) => join(sandboxDir, `${basename(dir)}.ext4`)

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
    attached: (dir) => mountPoints().has(dir),
    async attach(sandboxDir, dir, sizeMB) {
      if (mountPoints().has(dir)) return
      const image = imagePath(sandboxDir, dir)
      let fresh = false
      try {
        accessSync(image)
      } catch {
        if (readdirSync(dir).length > 0) return
        await makeImage(mkfs, image, sizeMB)
        fresh = true
      }
      await mountImage(image, dir)
      // ext4's own folder would show in the user's home; e2fsck makes it again if ever needed.
      if (fresh) rmSync(join(dir, 'lost+found'), { recursive: true, force: true })
    },
    async detach(dir) {
      if (mountPoints().has(dir)) await unmount(dir)
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
