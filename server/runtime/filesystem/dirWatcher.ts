import { sharedInotify } from './inotify'
import { InotifyWatcher } from './inotifyWatcher'
import { TreeWatcher, type TreeWatcherOptions } from './treeWatcher'

/** What WatchDir and the polling watchers need of a watcher. */
export interface DirWatcher {
  start(): Promise<void>
  close(): void
  readonly watchCount: number
}

/**
 * A watcher for `root`: envd's inotify mapping through the runtime's inotify instance, or,
 * without the native addon's inotify, fs.watch and the differences listed in treeWatcher.ts.
 */
export function newDirWatcher(root: string, options: TreeWatcherOptions): DirWatcher {
  const inotify = sharedInotify()
  return inotify ? new InotifyWatcher(root, options, inotify) : new TreeWatcher(root, options)
}
