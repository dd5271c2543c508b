import { cgroupPids } from './cgroupProcs'
import {
  hostPids,
  inBatches,
  listProcesses,
  type ProcEntry,
  parentsFirst,
  pidNamespaceOf,
  readProcEntries,
} from './procTable'

/**
 * Lists the host pids of a sandbox's processes, parents before children (the root first).
 * Asynchronous: a scan of /proc on a busy host would otherwise hold the platform's event loop,
 * and every sandbox's keystrokes with it, for tens of milliseconds.
 */
export type MemberLister = () => Promise<number[]>

/**
 * The cgroup folder holding every process of the sandbox (its freezer's or its limits' group,
 * which its outermost process joined before it started anything), once it has one. Its
 * `cgroup.procs` is one small read where a scan reads a file per process of the host.
 */
export type GroupOf = () => string | undefined

const noGroup: GroupOf = () => undefined

/** The pids that may be members: the group's where there is one, else every host process. */
const candidatePids = (group: string | undefined) => (group ? cgroupPids(group) : hostPids())

/** The entries of the candidates (see `candidatePids`); stat is read for each. */
const candidateEntries = async (group: string | undefined) =>
  group ? readProcEntries(await cgroupPids(group)) : listProcesses()

/**
 * Members of a bubblewrap sandbox: every process in the PID namespace of the outer bwrap's child
 * (the sandbox's init). The namespace is looked up once the init exists and remembered.
 */
export function pidNamespaceMembers(outerPid: number, groupOf: GroupOf = noGroup): MemberLister {
  let namespace: string | undefined
  return async () => {
    const group = groupOf()
    if (!namespace) {
      const processes = await candidateEntries(group)
      const init = processes.find((p) => p.ppid === outerPid)
      const found = init && (await pidNamespaceOf(init.pid))
      if (!found || found === (await pidNamespaceOf(outerPid))) return []
      namespace = found
    }
    // The namespace first (a readlink each), then stat for its members only, for their parents.
    const pids = await candidatePids(group)
    const namespaces = await inBatches(pids, pidNamespaceOf)
    return parentsFirst(await readProcEntries(pids.filter((_, i) => namespaces[i] === namespace)))
  }
}

/** Members of an unisolated sandbox: the runtime and its descendants (orphans escape, as they do). */
export function descendantMembers(rootPid: number, groupOf: GroupOf = noGroup): MemberLister {
  return async () => {
    const children = new Map<number, ProcEntry[]>()
    let root: ProcEntry | undefined
    for (const p of await candidateEntries(groupOf())) {
      if (p.pid === rootPid) root = p
      const siblings = children.get(p.ppid)
      if (siblings) siblings.push(p)
      else children.set(p.ppid, [p])
    }
    if (!root) return []
    const found: ProcEntry[] = []
    const queue = [root]
    for (let next = queue.shift(); next; next = queue.shift()) {
      found.push(next)
      queue.push(...(children.get(next.pid) ?? []))
    }
    return parentsFirst(found)
  }
}
