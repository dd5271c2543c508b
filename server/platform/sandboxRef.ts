/** A sandbox the stack knows of: one of its own, or one on an E2B remote the stack holds a key for. */
export interface SandboxRef {
  sandboxId: string
  /** The E2B remote it lives on; absent for the stack's own. */
  remoteId?: string
}

/** True when both name the same sandbox in the same place. */
export function sameSandbox(a: SandboxRef, b: SandboxRef): boolean {
  return a.sandboxId === b.sandboxId && (a.remoteId ?? '') === (b.remoteId ?? '')
}

/** A key naming the sandbox and its place, for maps and files: `{id}` or `{remoteId}/{id}`. */
export function sandboxKey(ref: SandboxRef): string {
  return ref.remoteId ? `${ref.remoteId}/${ref.sandboxId}` : ref.sandboxId
}

/** The sandbox `sandboxId` of a place: the stack's own (no remote), or one on `remoteId`. */
export function sandboxIn(remoteId: string | undefined, sandboxId: string): SandboxRef {
  return remoteId ? { remoteId, sandboxId } : { sandboxId }
}

/** The sandbox a `sandboxKey` names. */
export function sandboxOfKey(key: string): SandboxRef {
  const slash = key.indexOf('/')
  return slash < 0 ? { sandboxId: key } : sandboxIn(key.slice(0, slash), key.slice(slash + 1))
}
