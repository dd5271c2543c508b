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
