import type { SandboxState } from '../../../src/contract/ideApiTypes'
import type { SandboxManager } from '../sandboxManager'
import { type SandboxCommands, sandboxCommands } from './sandboxCommands'

/** A sandbox of some class, as its platform lists it. */
export interface ClassMember {
  sandboxId: string
  state: SandboxState
  endAt: string
  /** `class` and `student`, as `npm run class` sets them, and whatever else it was made with. */
  metadata: Record<string, string>
  /**
   * The names its lab's template may have among the stack's templates, first first: its own
   * template's; on E2B, its template's alias, then its id (as a Submit looks its lab up).
   */
  templates: string[]
}

/**
 * Where a class's sandboxes live, and what the teacher's dashboard does to them there: the
 * stack's own sandboxes, or an E2B remote's (see remoteClassPlace), whose key stays on the stack.
 */
export interface ClassPlace {
  /** The E2B remote; absent for the stack's own sandboxes. */
  readonly remoteId?: string
  /** The sandboxes of class `name`; of every class when absent. */
  members(name?: string): Promise<ClassMember[]>
  /** Runs commands in a running sandbox, through its runtime. */
  commands(sandboxId: string): Promise<SandboxCommands>
  pause(sandboxId: string): Promise<void>
  resume(sandboxId: string): Promise<void>
  setTimeout(sandboxId: string, seconds: number): Promise<void>
  kill(sandboxId: string): Promise<void>
}

/** The stack's own sandboxes as a place for classes. */
export function localClassPlace(manager: SandboxManager): ClassPlace {
  return {
    members: async (name) =>
      manager
        .list()
        .filter((r) => (name === undefined ? r.metadata.class !== undefined : r.metadata.class === name))
        .map((r) => ({
          sandboxId: r.sandboxID,
          state: r.state,
          endAt: r.endAt,
          metadata: r.metadata,
          templates: [r.templateID],
        })),
    commands: async (sandboxId) => {
      manager.get(sandboxId) // 404 for one that does not exist
      const route = manager.route(sandboxId)
      if (route.kind !== 'running') throw new Error(`the sandbox is ${route.kind}`)
      return sandboxCommands(route.runtime)
    },
    pause: (sandboxId) => manager.pause(sandboxId).then(() => undefined),
    resume: (sandboxId) => manager.connect(sandboxId).then(() => undefined),
    setTimeout: async (sandboxId, seconds) => manager.setTimeout(sandboxId, seconds),
    kill: (sandboxId) => manager.kill(sandboxId).then(() => undefined),
  }
}
