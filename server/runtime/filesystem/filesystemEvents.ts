import { join } from 'node:path'
import { create } from '@bufbuild/protobuf'
import {
  type EntryInfo,
  EventType,
  type FilesystemEvent,
  FilesystemEventSchema,
} from '../../../src/gen/filesystem_pb'
import type { UserDirectory } from '../users'
import { entryInfo } from './entryInfo'
import type { WatchChange } from './treeWatcher'

/** Event types that may carry an EntryInfo (envd-api.md §4.3, include_entry). */
const withEntry = new Set([EventType.CREATE, EventType.WRITE, EventType.CHMOD])

/**
 * FilesystemEvents for a batch of changes under `root` (the path as the client asked for it).
 * With `includeEntry`, CREATE, WRITE and CHMOD carry EntryInfo, best effort: left out when the
 * entry is already gone.
 */
export function filesystemEvents(
  changes: WatchChange[],
  root: string,
  includeEntry: boolean,
  users: UserDirectory,
): FilesystemEvent[] {
  return changes.map(({ name, type }) => {
    const entry = includeEntry && withEntry.has(type) ? entryIfPresent(join(root, name), users) : undefined
    return create(FilesystemEventSchema, { name, type, entry })
  })
}

/** Best effort, as envd: a path that vanished since the event has no entry. */
function entryIfPresent(path: string, users: UserDirectory): EntryInfo | undefined {
  try {
    return entryInfo(path, users)
  } catch {
    return undefined
  }
}
