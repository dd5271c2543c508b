import { join } from 'node:path'
import { CgroupDir } from './cgroupDir'
import type { Freezer, SandboxFreezer } from './freezer'
import { waitFor } from './waitFor'

/** Freezes sandboxes with the cgroup v1 freezer: one group per sandbox under `base`. */
export function cgroupV1Freezer(base: string): Freezer {
  return {
    kind: 'cgroup-v1',
    attach: async (id, pid) => {
      const group = new CgroupDir(join(base, id))
      const setState = async (state: 'FROZEN' | 'THAWED') => {
        group.write('freezer.state', state)
        // FREEZING can linger while a task is busy in the kernel; asking again retries it.
        await waitFor(() => {
          if (group.read('freezer.state') === state) return true
          group.write('freezer.state', state)
          return false
        }, `${group.path} to be ${state}`)
      }
      const killAll = () => group.killMembers(() => group.write('freezer.state', 'THAWED'))
      if (group.exists()) {
        // Left by a platform that died while this sandbox was frozen.
        await killAll()
        await group.remove()
      }
      group.create()
      group.add(pid)
      const sandbox: SandboxFreezer = {
        freeze: () => setState('FROZEN'),
        thaw: () => setState('THAWED'),
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
