import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { readJsonRecord, writeRecordFile } from '../recordFile'
import { CgroupDir } from './cgroupDir'
import { findCgroupDirs, sandboxGroupParent } from './findCgroupDirs'

/** The cgroup folders this stack puts sandboxes under (`<own>/sandbox-ide`), in every hierarchy it uses. */
function sandboxGroupParents(): string[] {
  const dirs = findCgroupDirs()
  return [dirs.v2, dirs.v1Freezer, ...Object.values(dirs.v1Limits ?? {})]
    .filter((dir): dir is string => dir !== undefined)
    .map((dir) => join(dir, sandboxGroupParent))
}

/**
 * Ends what is left of sandboxes (of `ids`) whose stack was killed, and removes their cgroups:
 * each sandbox's processes are in its own group from before its runtime starts, so none escapes,
 * and they must all be gone before its file systems are unmounted and mounted again (a sandbox
 * still holding its home's ext4 while a new stack mounts the same image would have two kernels'
 * views of one disk write to it). A sandbox being launched when the stack was killed can outlive
 * it (bwrap, released by the closed block fd, starts it regardless), and a frozen one (cgroup v1)
 * cannot die until thawed. The groups are looked for where this stack's are and where the
 * killed stack's were (recorded in `stateDir`: it may have run in another cgroup). Says how many
 * sandboxes still had processes, and the groups it could not empty or remove (and why).
 */
export async function endLeftoverSandboxes(
  stateDir: string,
  ids: string[],
): Promise<{ ended: number; problems: string[] }> {
  const record = join(stateDir, 'cgroups.json')
  const recorded =
    readJsonRecord(record, 'a list of cgroup folders', (value) =>
      Array.isArray(value) && value.every((dir) => typeof dir === 'string') ? (value as string[]) : undefined,
    ) ?? []
  const current = sandboxGroupParents()
  let ended = 0
  const problems: string[] = []
  for (const id of ids) {
    const groups = [...new Set([...recorded, ...current])]
      .map((parent) => new CgroupDir(join(parent, id)))
      .filter((group) => group.exists())
    if (groups.some((group) => group.pids().length > 0)) ended += 1
    for (const group of groups) {
      try {
        await group.killMembers(() => {
          // A frozen group: let it go, so the kill lands (v2 kills frozen tasks, v1 does not).
          if (group.has('freezer.state')) group.write('freezer.state', 'THAWED')
          if (group.has('cgroup.freeze')) group.write('cgroup.freeze', '0')
          if (group.has('cgroup.kill')) group.write('cgroup.kill', '1')
        })
        await group.remove()
      } catch (err) {
        problems.push(`${group.path}: ${err instanceof Error ? err.message : String(err)}`)
      }
    }
  }
  mkdirSync(stateDir, { recursive: true })
  writeRecordFile(record, `${JSON.stringify(current)}\n`)
  return { ended, problems }
}
