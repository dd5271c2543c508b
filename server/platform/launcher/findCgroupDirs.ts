import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Parent of every sandbox's group, inside this process's own cgroup: `<own>/sandbox-ide/<id>`. */
export const sandboxGroupParent = 'sandbox-ide'

/** This process's own cgroup folders, in the hierarchies that can freeze. */
export interface CgroupDirs {
  /** In the cgroup v2 (unified) hierarchy. */
  v2?: string
  /** In the cgroup v1 freezer hierarchy. */
  v1Freezer?: string
  /** In the cgroup v1 hierarchies of the controllers that limit a sandbox, where mounted. */
  v1Limits?: Partial<Record<LimitController, string>>
}

/** The controllers that bound a sandbox's CPU, memory and number of processes. */
export type LimitController = 'cpu' | 'memory' | 'pids'
export const limitControllers: LimitController[] = ['cpu', 'memory', 'pids']

interface Mount {
  root: string
  mountPoint: string
  fsType: string
  superOptions: string[]
}

const unescapeOctal = (field: string) =>
  field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)))

function readMounts(): Mount[] {
  const mounts: Mount[] = []
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [left, right] = line.split(' - ')
    if (!left || !right) continue
    const fields = left.split(' ')
    const [fsType, , superOptions] = right.split(' ')
    const root = fields[3]
    const mountPoint = fields[4]
    if (!root || !mountPoint || !fsType) continue
    mounts.push({
      root: unescapeOctal(root),
      mountPoint: unescapeOctal(mountPoint),
      fsType,
      superOptions: (superOptions ?? '').split(','),
    })
  }
  return mounts
}

/** Our cgroup path as seen through a mount of that hierarchy (which may show only a subtree). */
function dirFor(mount: Mount | undefined, path: string | undefined): string | undefined {
  if (!mount || path === undefined) return undefined
  if (mount.root !== '/' && !path.startsWith(mount.root)) return undefined
  const inside = mount.root === '/' ? path : path.slice(mount.root.length)
  return join(mount.mountPoint, inside)
}

/** Finds where this process sits in the cgroup v2 and v1-freezer hierarchies, where mounted. */
export function findCgroupDirs(): CgroupDirs {
  let mounts: Mount[]
  let own: string
  try {
    mounts = readMounts()
    own = readFileSync('/proc/self/cgroup', 'utf8')
  } catch {
    return {}
  }
  let v2Path: string | undefined
  let freezerPath: string | undefined
  const limitPaths: Partial<Record<LimitController, string>> = {}
  for (const line of own.split('\n')) {
    const [id, controllers, ...rest] = line.split(':')
    const path = rest.join(':')
    const names = controllers?.split(',') ?? []
    if (id === '0' && controllers === '') v2Path = path
    else if (names.includes('freezer')) freezerPath = path
    for (const controller of limitControllers) if (names.includes(controller)) limitPaths[controller] = path
  }
  const v1Limits: Partial<Record<LimitController, string>> = {}
  for (const controller of limitControllers) {
    const dir = dirFor(
      mounts.find((m) => m.fsType === 'cgroup' && m.superOptions.includes(controller)),
      limitPaths[controller],
    )
    if (dir) v1Limits[controller] = dir
  }
  const v2 = dirFor(
    mounts.find((m) => m.fsType === 'cgroup2'),
    v2Path,
  )
  const v1Freezer = dirFor(
    mounts.find((m) => m.fsType === 'cgroup' && m.superOptions.includes('freezer')),
    freezerPath,
  )
  return {
    ...(v2 ? { v2 } : {}),
    ...(v1Freezer ? { v1Freezer } : {}),
    ...(Object.keys(v1Limits).length > 0 ? { v1Limits } : {}),
  }
}
