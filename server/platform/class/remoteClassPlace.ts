import { E2bClient } from '../ide/e2bClient'
import { remoteSession } from '../ide/remoteSession'
import type { StoredRemote } from '../ide/remoteStore'
import type { ClassPlace } from './classPlace'
import { sandboxCommands } from './sandboxCommands'

/**
 * How long a class sandbox on E2B runs once the teacher resumes it (seconds): a lesson's four
 * hours, as `npm run class` gives a new one. E2B's connect sets a timeout from now; the old one is
 * not kept across a pause.
 */
export const classResumeSeconds = 4 * 60 * 60

/**
 * An E2B remote's sandboxes as a place for classes: listed by their `class` metadata, checked
 * through their own runtimes at E2B's sandbox domain with their own tokens, paused, resumed,
 * extended and killed through E2B's API with the key the stack keeps.
 */
export function remoteClassPlace(remote: StoredRemote): ClassPlace {
  const client = new E2bClient(remote)
  return {
    remoteId: remote.remoteId,
    members: async (name) =>
      (await client.list(name === undefined ? {} : { class: name }))
        .map((s) => ({
          sandboxId: s.sandboxID,
          state: s.state,
          endAt: s.endAt,
          metadata: s.metadata ?? {},
          templates: [s.alias, s.templateID].filter((t): t is string => Boolean(t)),
        }))
        .filter((m) => (name === undefined ? m.metadata.class !== undefined : m.metadata.class === name)),
    commands: async (sandboxId) => sandboxCommands(remoteSession(remote, await client.sandbox(sandboxId))),
    pause: (sandboxId) => client.pause(sandboxId),
    resume: (sandboxId) => client.connect(sandboxId, classResumeSeconds),
    setTimeout: (sandboxId, seconds) => client.setTimeout(sandboxId, seconds),
    kill: (sandboxId) => client.kill(sandboxId),
  }
}
