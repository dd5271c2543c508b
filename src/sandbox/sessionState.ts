/** Where a session stands; every state is shown to the user as it is. */
export type SessionState =
  | { kind: 'connecting' }
  | { kind: 'running' }
  | { kind: 'paused'; processesLost: boolean }
  /** The stack or the runtime stopped answering; the next try is at `nextTryAt` (epoch ms). */
  | { kind: 'reconnecting'; attempt: number; nextTryAt: number; reason: string }
  /** The platform says the sandbox runs, but its runtime does not answer. */
  | { kind: 'unreachable'; reason: string }
  /** The sandbox no longer exists. */
  | { kind: 'gone'; reason: string }
  /** This browser's sign-in no longer opens it (a link revoked or expired, a token rotated): asked again only now and then. */
  | { kind: 'signed-out'; reason: string }

export type SessionStateKind = SessionState['kind']

/** A short label for a state, as the toolbar and status bar show it. */
export function stateLabel(state: SessionState): string {
  switch (state.kind) {
    case 'connecting':
      return 'Connecting'
    case 'running':
      return 'Running'
    case 'paused':
      return 'Paused'
    case 'reconnecting':
      return `Reconnecting (attempt ${state.attempt})`
    case 'unreachable':
      return 'Unreachable'
    case 'gone':
      return 'Gone'
    case 'signed-out':
      return 'Signed out'
  }
}
