import { Later } from '../common/Later'
import { retryImport } from '../common/retryImport'
import type { SearchKit } from './searchServices'
import type { Workspace } from './Workspace'

const searches = new WeakMap<Workspace, Later<SearchKit>>()

/**
 * The workspace's Find in Files and Go to File, made the first time they are wanted (the Search
 * view shows, Go to File opens): their code is a chunk of its own, fetched then, out of the first
 * page's script. Undefined in the Later until it is there.
 */
export function searchOf(workspace: Workspace): Later<SearchKit> {
  let search = searches.get(workspace)
  if (!search) {
    const later = new Later<SearchKit>()
    search = later
    searches.set(workspace, later)
    // A workspace gone by then disposes the search as it adopts it.
    void retryImport(() => import('./searchServices')).then(({ startSearch }) =>
      later.set(workspace.adopt(startSearch(workspace.session, workspace.watch, workspace.editor))),
    )
  }
  return search
}
