import { readdirSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { syncFolder } from '../../recordFile'

/** A folder being removed is first renamed so; a removal killed halfway leaves it to be swept. */
const removingPrefix = '.removing-'

/**
 * Removes a folder so that, once this returns, it is gone after a power cut too: renamed aside
 * and the rename flushed (from then on nothing lists it), then deleted. A crash mid-delete leaves
 * only the renamed folder, which `sweepRemovals` deletes.
 */
export function removeDurably(dir: string): void {
  const aside = join(dirname(dir), `${removingPrefix}${basename(dir)}`)
  rmSync(aside, { recursive: true, force: true })
  renameSync(dir, aside)
  syncFolder(dirname(dir))
  rmSync(aside, { recursive: true, force: true })
}

/** Deletes what removals killed halfway left in `folder`. */
export function sweepRemovals(folder: string): void {
  for (const name of readdirSync(folder))
    if (name.startsWith(removingPrefix)) rmSync(join(folder, name), { recursive: true, force: true })
}
