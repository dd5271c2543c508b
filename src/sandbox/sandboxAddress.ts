import type { PlatformPath } from '../api/ideApi'

/** How the IDE reaches a sandbox: through the local stack, through it to E2B, or straight to a runtime. */
export type SandboxAddress =
  | PlatformPath
  | {
      source: 'runtime'
      runtimeUrl: string
      accessToken: string
    }

/** A stable key for per-sandbox state (layout, terminals) that never contains a secret. */
export function addressKey(address: SandboxAddress): string {
  if (address.source === 'local') return `local:${address.sandboxId}`
  if (address.source === 'e2b') return `e2b:${address.remoteId}:${address.sandboxId}`
  return `runtime:${address.runtimeUrl}`
}
