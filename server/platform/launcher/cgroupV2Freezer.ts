import { join } from 'node:path'
import { CgroupDir } from './cgroupDir'
import type { Freezer, SandboxFreezer } from './freezer'
import { waitFor } from './waitFor'

/** Freezes sandboxes with cgroup v2's cgroup.freeze: one group per sandbox under `base`. */
export function cgroupV2Freezer(base: string): Freezer {
  return {
    kind: 'cgroup-v2',
    attach: async (id, pid) => {
      const group = new CgroupDir(join(base, id))
      const setFrozen = async (frozen: boolean) => {
        group.write('cgroup.freeze', frozen ? '1' : '0')
        const want = `frozen ${frozen ? 1 : 0}`
        await waitFor(
          () => group.read('cgroup.events').split('\n').includes(want),
          `${group.path} to be ${frozen ? 'frozen' : 'thawed'}`,
        )
      }
      // A frozen v2 group still takes fatal signals; cgroup.kill (Linux 5.14) gets them all at once.
      const killAll = () =>
        group.killMembers(() => {
          if (group.has('cgroup.kill')) group.write('cgroup.kill', '1')
        })
      if (group.exists()) {
        await killAll()
        await group.remove()
      }
      group.create()
      group.add(pid)
      const sandbox: SandboxFreezer = {
        freeze: () => setFrozen(true),
        thaw: () => setFrozen(false),
        killAll: async () => {
          if (group.exists()) await killAll()
        },
        release: () => group.remove(),
        group: group.path,
      }
      return sandbox
    },
  }
}
