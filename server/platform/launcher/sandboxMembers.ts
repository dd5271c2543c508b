import { inBatches, listProcesses, type ProcEntry, parentsFirst, pidNamespaceOf } from './procTable'

/**
 * Lists the host pids of a sandbox's processes, parents before children (the root first).
 * Asynchronous: a scan of /proc on a busy host would otherwise hold the platform's event loop,
 * and every sandbox's keystrokes with it, for tens of milliseconds.
 */
export type MemberLister = () => Promise<number[]>

/**
 * Members of a bubblewrap sandbox: every process in the PID namespace of the outer bwrap's child
 * (the sandbox's init). The namespace is looked up once the init exists and remembered.
 */
export function pidNamespaceMembers(outerPid: number): MemberLister {
  let namespace: string | undefined
  return async () => {
    const processes = await listProcesses()
    if (!namespace) {
      const init = processes.find((p) => p.ppid === outerPid)
      const found = init && (await pidNamespaceOf(init.pid))
      if (!found || found === (await pidNamespaceOf(outerPid))) return []
      namespace = found
    }
    const namespaces = await inBatches(processes, (p) => pidNamespaceOf(p.pid))
    return parentsFirst(processes.filter((_, i) => namespaces[i] === namespace))
  }
}

/** Members of an unisolated sandbox: the runtime and its descendants (orphans escape, as they do). */
export function descendantMembers(rootPid: number): MemberLister {
  return async () => {
    const children = new Map<number, ProcEntry[]>()
    let root: ProcEntry | undefined
    for (const p of await listProcesses()) {
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
