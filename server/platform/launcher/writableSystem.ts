import { chownSync, existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { mountPoints, runTool, unmount } from '../mounts'
import { prepareRootLayer, type WritableLayer } from './sandboxRootLayer'
import { grantPassage, openSandboxUserNamespace, sandboxHostIds } from './sandboxUserNamespace'

/**
 * The host's system folders a sandbox gets a writable copy of: what `apt-get install` and a root
 * who edits /etc change. The rest of /var (the host's data, logs, mail) stays out of sight.
 */
export const writableSystemDirs = ['/usr', '/etc', '/var/lib/dpkg', '/var/lib/apt', '/var/cache']
/**
 * Files of those folders a sandbox must not read: answers to packages' questions that are
 * passwords. (Their other unreadable files are locks and apt's own folders, which apt needs.)
 */
export const hiddenSystemFiles = ['/var/cache/debconf/passwords.dat']

const python = '/usr/bin/python3'
const helper = join(import.meta.dirname, 'idmappedMount.py')

/** A folder's name under the system folders: `/var/lib/dpkg` → `var-lib-dpkg`. */
const slug = (dir: string) => dir.slice(1).replaceAll('/', '-')

/** The host's system folders, seen as owned by the sandboxes' root: the lower layers of every sandbox's system. */
export interface SystemBase {
  /** Host folder of each writable system folder's idmapped, read-only view. */
  lower(dir: string): string
  /** Unmounts the views (once no sandbox's system is mounted over them). */
  release(): Promise<void>
}

/**
 * Mounts a read-only view of each of `writableSystemDirs` under `baseDir` in which the host's ids
 * are shifted as the sandboxes' are (host root shows as the sandboxes' root), so a sandbox's root
 * may change its copy of them through an overlay, and never the host's. `baseDir` is host root's
 * alone. Throws with the reason when this machine cannot (kernel, python3).
 */
export async function mountSystemBase(baseDir: string): Promise<SystemBase> {
  if (!existsSync(python))
    throw new Error(`${python} is missing (Debian's python3 makes the idmapped mounts)`)
  mkdirSync(baseDir, { recursive: true, mode: 0o700 })
  const ns = await openSandboxUserNamespace()
  try {
    const mounted = mountPoints()
    for (const dir of writableSystemDirs) {
      const at = join(baseDir, slug(dir))
      // From a run of the platform that ended without unmounting.
      if (mounted.has(at)) await unmount(at)
      mkdirSync(at, { recursive: true })
      await runTool(python, [helper, dir, at, ns.path])
    }
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim()
    throw new Error(stderr || (err instanceof Error ? err.message : String(err)))
  } finally {
    ns.release()
  }
  return {
    lower: (dir) => join(baseDir, slug(dir)),
    release: async () => {
      await Promise.all(writableSystemDirs.map((dir) => unmount(join(baseDir, slug(dir))).catch(() => {})))
    },
  }
}

/** A sandbox's system, mounted: what bwrap binds where, and how to unmount it. */
export interface SandboxSystem {
  /** Host folder and the sandbox folder it becomes, read-write: the system folders' overlays. */
  binds: [string, string][]
  /** Host folder that becomes the sandbox's `/`, under the binds (see sandboxRootLayer.ts). */
  root: string
  /** The root and the binds, with the host's folder under each overlay. */
  layers: WritableLayer[]
  unmount(): Promise<void>
}

/**
 * Mounts a sandbox's writable system: for each writable folder an overlay of the base (lower)
 * and the sandbox's own changes (upper, in `systemDir`), and its root layer for all the rest;
 * all kept with the sandbox across pause, resume and restarts, and removed with it.
 */
export async function mountSandboxSystem(
  base: SystemBase,
  systemDir: string,
  /** Lets go of what `systemDir` is (its own file system) once its layers are unmounted. */
  detach: () => Promise<void> = async () => {},
): Promise<SandboxSystem> {
  const rootIds = [sandboxHostIds.root, sandboxHostIds.root] as const
  mkdirSync(systemDir, { recursive: true, mode: 0o711 })
  const mounted = mountPoints()
  const merged: string[] = []
  const binds: [string, string][] = []
  const unmountAll = async () => {
    await Promise.all(merged.map((view) => unmount(view).catch(() => {})))
    await detach().catch(() => {})
  }
  try {
    // All at once: each is a `mount` of its own, and a sandbox's start waits for them.
    await Promise.all(
      writableSystemDirs.map(async (dir) => {
        const layer = join(systemDir, slug(dir))
        const [upper, work, view] = ['upper', 'work', 'merged'].map((name) => join(layer, name)) as [
          string,
          string,
          string,
        ]
        for (const folder of [upper, work, view]) mkdirSync(folder, { recursive: true })
        chownSync(upper, ...rootIds)
        chownSync(work, ...rootIds)
        if (mounted.has(view)) await unmount(view)
        await runTool('mount', [
          '-t',
          'overlay',
          'overlay',
          '-o',
          `lowerdir=${base.lower(dir)},upperdir=${upper},workdir=${work}`,
          view,
        ])
        merged.push(view)
        grantPassage(layer, systemDir)
      }),
    )
    for (const dir of writableSystemDirs) binds.push([join(systemDir, slug(dir), 'merged'), dir])
    const root = prepareRootLayer(systemDir)
    grantPassage(root, systemDir)
    const layers: WritableLayer[] = [
      { host: root, at: '/' },
      ...binds.map(([host, at]) => ({ host, at, lower: base.lower(at) })),
    ]
    return { binds, root, layers, unmount: unmountAll }
  } catch (err) {
    await unmountAll()
    throw err
  }
}
