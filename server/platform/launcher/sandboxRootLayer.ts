import {
  chmodSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import type { RootEntry } from './hostSystemPaths'
import { sandboxHostIds } from './sandboxUserNamespace'

/**
 * A sandbox's root layer: the folder, in its system folder, that becomes its `/`. It holds what
 * the sandbox writes outside its system folders (overlays of the host's, mounted over it) and
 * its home: `/opt`, `/srv`, `/0`, `/var/lib/postgresql`, `/var/log`. It starts with empty
 * folders only, so nothing of the host's shows through it (an overlay of the host's `/` would
 * show the data folder and the project, unless each were hidden).
 */
export const rootLayerName = 'rootfs'

/**
 * The folders a sandbox's root starts with, empty, with their modes: a Debian system's. Before
 * the root was writable, /var/log and /var/tmp were folders of their own beside it (`var-log`);
 * a sandbox from then has them moved in.
 */
const firstFolders: [string, number][] = [
  ['/mnt', 0o755],
  ['/media', 0o755],
  ['/opt', 0o755],
  ['/srv', 0o755],
  ['/var/log', 0o755],
  ['/var/tmp', 0o1777],
]

const rootIds = [sandboxHostIds.root, sandboxHostIds.root] as const

/** What is at `path`, not following a link: undefined when nothing is. */
function kindOf(path: string): 'dir' | 'link' | 'other' | undefined {
  try {
    const stat = lstatSync(path)
    return stat.isDirectory() ? 'dir' : stat.isSymbolicLink() ? 'link' : 'other'
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

/** The components of a path in the sandbox: `/var/lib/dpkg` → `var`, `lib`, `dpkg`. */
const componentsOf = (path: string) => path.split('/').filter(Boolean)

/**
 * Makes `path` (in the sandbox) a folder of root's in the layer at `layer`, with the folders on
 * the way, as the host's root never follows the sandbox's links: one on the way is removed and a
 * folder made instead. False when a file is in the way (the sandbox's own doing).
 */
function makeRootFolder(layer: string, path: string, mode: number): boolean {
  let at = layer
  for (const name of componentsOf(path)) {
    at = join(at, name)
    const kind = kindOf(at)
    if (kind === 'dir') continue
    if (kind === 'other') return false
    if (kind === 'link') unlinkSync(at)
    mkdirSync(at)
    lchownSync(at, ...rootIds)
    chmodSync(at, at === join(layer, path) ? mode : 0o755)
  }
  return true
}

/**
 * Gives a sandbox's system folder its root layer: root's own, with `firstFolders` the first time
 * (made aside and renamed into place, so a start cut short leaves no half-made root). Returns its
 * path.
 */
export function prepareRootLayer(systemDir: string): string {
  const layer = join(systemDir, rootLayerName)
  if (kindOf(layer) === 'dir') return layer
  const fresh = `${layer}.new`
  if (kindOf(fresh) === undefined) {
    mkdirSync(fresh)
    lchownSync(fresh, ...rootIds)
    chmodSync(fresh, 0o755)
  }
  for (const [dir, mode] of firstFolders) {
    const inLayer = join(fresh, dir)
    if (!makeRootFolder(fresh, dirname(dir), 0o755) || kindOf(inLayer) !== undefined) continue
    const earlier = join(systemDir, dir.slice(1).replaceAll('/', '-'))
    if (kindOf(earlier) !== 'dir') makeRootFolder(fresh, dir, mode)
    else {
      // Its files kept; its mode the one it should have had (it was made 0755).
      renameSync(earlier, inLayer)
      chmodSync(inLayer, mode)
    }
  }
  renameSync(fresh, layer)
  return layer
}

/** A folder of the host's that is a folder of a sandbox's, writable by the sandbox's root. */
export interface WritableLayer {
  host: string
  /** Where the sandbox sees it. */
  at: string
  /** For an overlay: the host's read-only folder under it (a link there is the host's, not the sandbox's). */
  lower?: string
}

/**
 * Before a sandbox starts on its own root: the root's links into /usr (`/bin` → `usr/bin`) are
 * there, and no link the sandbox's root made lies on the way to a path bwrap mounts on
 * (`mountPoints`). bwrap follows links on that way, and from where it stands a link may lead
 * anywhere on the host: it would make a folder or a file, as the sandbox's root, in another
 * sandbox's. Such a link is removed, and the folders on the way made. Each path is looked for in
 * the deepest of `layers` it lies under (the root for `/opt`, the system's overlays for /etc).
 */
export function settleRootLayer(layers: WritableLayer[], mountPoints: string[], links: RootEntry[]): void {
  const root = layers.find((layer) => layer.at === '/')
  if (!root) throw new Error('settleRootLayer: no layer for /')
  const rootLinks = new Map(links.flatMap(({ path, symlinkTo }) => (symlinkTo ? [[path, symlinkTo]] : [])))
  for (const [path, target] of rootLinks) {
    const at = join(root.host, path)
    const kind = kindOf(at)
    if (kind === 'link' && readlinkSync(at) === target) continue
    // A folder or a file the sandbox put there instead is its own: bwrap leaves it too.
    if (kind === 'dir' || kind === 'other') continue
    if (kind === 'link') unlinkSync(at)
    symlinkSync(target, at)
    lchownSync(at, ...rootIds)
  }
  const byDepth = [...layers].sort((a, b) => b.at.length - a.at.length)
  for (const point of mountPoints) {
    // A layer's own mount point lies in the layer above it: /usr's in the root.
    const layer = byDepth.find(({ at }) => at === '/' || point.startsWith(`${at}/`)) ?? root
    const names = componentsOf(point.slice(layer.at.length))
    let inSandbox = layer.at === '/' ? '' : layer.at
    for (const [i, name] of names.entries()) {
      inSandbox = `${inSandbox}/${name}`
      const path = join(layer.host, inSandbox.slice(layer.at.length))
      let kind = kindOf(path)
      if (kind === 'link') {
        if (hostsOwnLink(layer, inSandbox, path, rootLinks)) break
        unlinkSync(path)
        kind = undefined
      }
      if (kind === 'dir') continue
      // The folders on the way made here, root's and open to all (bwrap would make them 0700).
      if (kind === undefined && i < names.length - 1) {
        mkdirSync(path)
        lchownSync(path, ...rootIds)
        chmodSync(path, 0o755)
        continue
      }
      break
    }
  }
}

/** Whether the link at `path` (`inSandbox` in the sandbox) is one the platform or the host made. */
function hostsOwnLink(
  layer: WritableLayer,
  inSandbox: string,
  path: string,
  rootLinks: Map<string, string>,
): boolean {
  const target = readlinkSync(path)
  if (layer.at === '/') return rootLinks.get(inSandbox) === target
  if (!layer.lower) return false
  const lower = join(layer.lower, inSandbox.slice(layer.at.length))
  return kindOf(lower) === 'link' && readlinkSync(lower) === target
}
