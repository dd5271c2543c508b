// The stack the fuzz suite runs against: a platform with two sandboxes, and a file on the host
// that no answer may ever hold. Shared by the test and the bench.
import { rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestPlatform, type TestPlatform } from '../platform/testing/platformFixture'
import type { FuzzTargets } from './fuzzRequests'
import { hostSecretMarker } from './fuzzRun'

/** A started fuzz stack. */
export interface FuzzStack {
  tp: TestPlatform
  targets: FuzzTargets
  hostSecret: string
  close(): Promise<void>
}

/** Starts a platform (room for a few sandboxes the fuzz creates) and two sandboxes on it. */
export async function startFuzzStack(): Promise<FuzzStack> {
  const hostSecret = hostSecretMarker()
  const hostSecretPath = join(tmpdir(), `fuzz-host-secret-${process.pid}-${Date.now()}`)
  writeFileSync(hostSecretPath, `${hostSecret}\n`)
  const tp = await startTestPlatform({ maxSandboxes: 6 })
  const sandboxes = []
  for (let i = 0; i < 2; i++) {
    const res = await tp.api('POST', '/sandboxes', { templateID: 'base', timeout: 3600 })
    if (res.status !== 201) throw new Error(`creating a fuzz sandbox: ${res.status} ${await res.text()}`)
    const body = (await res.json()) as { sandboxID: string; envdAccessToken: string }
    sandboxes.push({ id: body.sandboxID, accessToken: body.envdAccessToken })
  }
  return {
    tp,
    hostSecret,
    targets: {
      port: tp.platform.port,
      apiKey: tp.apiKey,
      ideToken: tp.platform.ideToken.current(),
      sandboxes,
      hostSecretPath,
    },
    close: async () => {
      await tp.close()
      rmSync(hostSecretPath, { force: true })
    },
  }
}
