import { join } from 'node:path'
import { cgroupV1Freezer } from './cgroupV1Freezer'
import { cgroupV2Freezer } from './cgroupV2Freezer'
import { findCgroupDirs, sandboxGroupParent } from './findCgroupDirs'
import type { Freezer, FreezerKind } from './freezer'
import { withProbeProcess } from './probeProcess'
import { descendantMembers } from './sandboxMembers'
import { signalFreezer } from './signalFreezer'

/** Which freezer to use: the best that works here, or one in particular (tests). */
export type FreezerPreference = 'auto' | FreezerKind

/** Freezes, thaws and kills a real throwaway process with `freezer`; throws when any step fails. */
function tryFreezer(freezer: Freezer): Promise<void> {
  return withProbeProcess(async ({ id, pid }) => {
    const sandbox = await freezer.attach(id, pid, descendantMembers(pid))
    try {
      await sandbox.freeze()
      await sandbox.thaw()
      await sandbox.killAll()
    } finally {
      await sandbox.release()
    }
  })
}

function candidates(): { kind: FreezerKind; make: () => Freezer | string }[] {
  const dirs = findCgroupDirs()
  return [
    {
      kind: 'cgroup-v2',
      make: () =>
        dirs.v2 ? cgroupV2Freezer(join(dirs.v2, sandboxGroupParent)) : 'no cgroup2 hierarchy is mounted',
    },
    {
      kind: 'cgroup-v1',
      make: () =>
        dirs.v1Freezer
          ? cgroupV1Freezer(join(dirs.v1Freezer, sandboxGroupParent))
          : 'no cgroup v1 freezer hierarchy is mounted',
    },
    { kind: 'signals', make: () => signalFreezer() },
  ]
}

/**
 * Picks how to freeze sandboxes by actually trying each way in turn (cgroup v2, cgroup v1,
 * signals). Resolves to the freezer and why the better ones were passed over; a freezer asked
 * for by name that does not work here is an error.
 */
export async function chooseFreezer(
  preference: FreezerPreference,
): Promise<{ freezer: Freezer; passedOver: string[] }> {
  const passedOver: string[] = []
  for (const candidate of candidates()) {
    if (preference !== 'auto' && preference !== candidate.kind) continue
    const made = candidate.make()
    let reason = typeof made === 'string' ? made : undefined
    if (typeof made !== 'string') {
      try {
        await tryFreezer(made)
        return { freezer: made, passedOver }
      } catch (err) {
        reason = err instanceof Error ? err.message : String(err)
      }
    }
    if (preference !== 'auto') throw new Error(`freezer '${preference}' does not work here: ${reason}`)
    passedOver.push(`${candidate.kind}: ${reason}`)
  }
  throw new Error(`no freezer works here: ${passedOver.join('; ')}`)
}
