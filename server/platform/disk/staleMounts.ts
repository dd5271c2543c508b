import { readdirSync, readFileSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { mountPoints, runTool, unmount } from '../mounts'

/** Mount points strictly under `dir`, in the order they were mounted (/proc/self/mountinfo's). */
export function mountsUnder(dir: string): string[] {
  const prefix = `${realpathSync(dir)}/`
  return [...mountPoints()].filter((point) => point.startsWith(prefix))
}

/** Loop devices (`/dev/loopN`) whose backing file is under `dir`. */
export function loopDevicesUnder(dir: string): string[] {
  const prefix = `${realpathSync(dir)}/`
  let names: string[]
  try {
    names = readdirSync('/sys/block').filter((name) => name.startsWith('loop'))
  } catch {
    return []
  }
  return names
    .filter((name) => {
      try {
        return readFileSync(join('/sys/block', name, 'loop', 'backing_file'), 'utf8').startsWith(prefix)
      } catch {
        // No backing file: a free device.
        return false
      }
    })
    .map((name) => `/dev/${name}`)
}

/**
 * Unmounts everything mounted under `dir` (a data folder: sandboxes' homes, their systems'
 * images and overlays, the system's base) and lets go of loop devices still backed by its
 * images: what a stack that was killed, or died, left behind. Latest mounts go first, as overlays
 * sit on the base and on their sandbox's image. Says what it released; nothing when all is clean.
 * Only for a folder no running stack uses (see stackLock.ts).
 */
export async function releaseMountsUnder(dir: string): Promise<{ mounts: number; loopDevices: number }> {
  let mounts = 0
  // Rounds, for a point mounted over twice (each round takes the top one off).
  for (let round = 0; round < 4; round++) {
    const left = mountsUnder(dir)
    if (left.length === 0) break
    for (const at of left.reverse()) await unmount(at).catch(() => {})
    mounts += left.length
  }
  // Unmounting a loop mount frees its device (autoclear), a moment after its last close: waited
  // for. One left over from a mount cut short, or held by a lazy unmount, is detached (or freed
  // once its last user goes), and waited for too, so that a stopped stack leaves nothing.
  const freed = async (timeoutMs: number) => {
    for (let waited = 0; waited < timeoutMs && loopDevicesUnder(dir).length > 0; waited += 50) await sleep(50)
  }
  await freed(2000)
  const loopDevices = loopDevicesUnder(dir)
  for (const device of loopDevices) await runTool('losetup', ['-d', device]).catch(() => {})
  if (loopDevices.length > 0) await freed(3000)
  const left = mountsUnder(dir)
  if (left.length > 0) throw new Error(`could not unmount ${left.join(', ')}`)
  return { mounts, loopDevices: loopDevices.length }
}
