import { Sandbox } from 'e2b'
import { envdVersion } from '../version'
import type { TestRuntime } from './runtimeFixture'

/**
 * The official e2b SDK's Sandbox, pointed at a lone test runtime: the SDK talks to `sandboxUrl`
 * as it would to envd behind E2B's edge (no platform API is involved).
 */
export function sdkSandbox(rt: TestRuntime): Sandbox {
  const SandboxWithPublicConstructor = Sandbox as unknown as new (opts: Record<string, unknown>) => Sandbox
  return new SandboxWithPublicConstructor({
    sandboxId: 'local-runtime',
    envdAccessToken: rt.token,
    envdVersion,
    sandboxUrl: rt.url,
    apiKey: 'unused-by-runtime-calls',
  })
}
