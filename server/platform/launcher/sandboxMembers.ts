import { listProcesses, type ProcEntry, parentsFirst, pidNamespaceOf } from './procTable'

/** Lists the host pids of a sandbox's processes, parents before children (the root first). */
export type MemberLister = () => number[]

/**
 * Members of a bubblewrap sandbox: every process in the PID namespace of the outer bwrap's child
 * (the sandbox's init). The namespace is looked up once the init exists and remembered.
 */
export function pidNamespaceMembers(outerPid: number): MemberLister {
  let namespace: string | undefined
  return () => {
    const processes = listProcesses()
    if (!namespace) {
      const init = processes.find((p) => p.ppid === outerPid)
      namespace = init && pidNamespaceOf(init.pid)
      if (!namespace || namespace === pidNamespaceOf(outerPid)) {
        namespace = undefined
        return []
      }
    }
    return parentsFirst(processes.filter((p) => pidNamespaceOf(p.pid) === namespace))
  }
}

/** Members of an unisolated sandbox: the runtime and its descendants (orphans escape, as they do). */
export function descendantMembers(rootPid: number): MemberLister {
  return () => {
    const children = new Map<number, ProcEntry[]>()
    let root: ProcEntry | undefined
    for (const p of listProcesses()) {
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
