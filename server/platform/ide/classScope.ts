import type { ClassMember } from '../class/classPlace'
import { localClassPlace } from '../class/classPlace'
import type { Submission } from '../class/grading/submissionStore'
import { remoteClassPlace } from '../class/remoteClassPlace'
import { PlatformError } from '../platformError'
import type { SandboxManager } from '../sandboxManager'
import { classNameParam } from './classNameParam'
import { isRemoteId, type RemoteStore } from './remoteStore'

/**
 * The class a gradebook or deadline route is about: the stack's own class of that name, or an
 * E2B remote's. Its submissions and its deadline are kept on the stack by its name either way.
 */
export interface ClassScope {
  name: string
  /** The E2B remote its sandboxes are on; absent for the stack's own. */
  remoteId?: string
  /**
   * Whether a stored submission is of this class: by its name (as before, whichever platform it
   * came from); on a remote, made on that remote too, so a remote class shows only its own.
   */
  holds(submission: Submission): boolean
  /** Its sandboxes where they are (none once the class ended). */
  members(): Promise<ClassMember[]>
  /** A 404 saying there is no such class where it was looked for. */
  missing(): PlatformError
}

/** Where a class's routes are: a path prefix and how its parameters make the class's scope. */
export interface ScopedPrefix {
  /** '' for the stack's own classes, `/remotes/([^/]+)` for an E2B remote's (as classRoutes has them). */
  prefix: string
  /** The scope from the route's parameters (the place's, then the class's name); the rest after. */
  scopeOf(params: string[]): { scope: ClassScope; rest: string[] }
}

/**
 * The two places a class's gradebook and deadline routes answer for, addressed as the class board
 * is: `/classes/{name}/…` for the stack's own, `/remotes/{remoteId}/classes/{name}/…` for a class
 * on E2B, whose students are listed by E2B with the key the stack keeps.
 */
export function classScopes(deps: {
  manager: SandboxManager
  remotes?: Pick<RemoteStore, 'get'> | undefined
}): ScopedPrefix[] {
  const local = localClassPlace(deps.manager)
  return [
    {
      prefix: '',
      scopeOf: ([name, ...rest]) => {
        const className = classNameParam(name)
        return {
          scope: {
            name: className,
            holds: (s) => s.className === className,
            members: () => local.members(className),
            missing: () => new PlatformError(404, `no class '${className}' on this stack`),
          },
          rest,
        }
      },
    },
    {
      prefix: '/remotes/([^/]+)',
      scopeOf: ([remoteId = '', name, ...rest]) => {
        if (!isRemoteId(remoteId)) throw new PlatformError(400, 'invalid remote id')
        const className = classNameParam(name)
        if (!deps.remotes) throw new PlatformError(404, `no E2B remote '${remoteId}': add it again`)
        const remotes = deps.remotes
        return {
          scope: {
            name: className,
            remoteId,
            holds: (s) => s.className === className && s.remoteId === remoteId,
            // Read when asked: a route that needs no student list does not call E2B.
            members: () => remoteClassPlace(remotes.get(remoteId)).members(className),
            missing: () => new PlatformError(404, `no class '${className}' on this E2B remote`),
          },
          rest,
        }
      },
    },
  ]
}
