import type { MemberLister } from './sandboxMembers'

/** How pause stops a sandbox's processes. */
export type FreezerKind = 'cgroup-v2' | 'cgroup-v1' | 'signals'

/** Freezes, thaws and kills the processes of one sandbox. */
export interface SandboxFreezer {
  /** Resolves once every process is stopped. */
  freeze(): Promise<void>
  thaw(): Promise<void>
  /** SIGKILLs every process of the sandbox, frozen or not, and resolves when none is left. */
  killAll(): Promise<void>
  /** Removes what `attach` set up; for after the processes are gone. */
  release(): Promise<void>
  /** The cgroup folder holding every process of the sandbox, where the freezer made one. */
  readonly group?: string
}

/** One way of freezing sandboxes. */
export interface Freezer {
  readonly kind: FreezerKind
  /**
   * Takes charge of the sandbox `id` whose outermost process is `pid`, before that process has
   * started anything (children inherit what it is put into). `members` lists its processes.
   */
  attach(id: string, pid: number, members: MemberLister): Promise<SandboxFreezer>
}
