import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SandboxLimits } from '../../../config'
import { runtimePort } from '../../testing/runtimeBridge'
import { createSandboxLauncher, type SandboxLauncherOptions } from '../createSandboxLauncher'
import type { LaunchedSandbox, SandboxLauncher } from '../sandboxLauncher'

/** The repository root, as the platform passes it. */
export const projectRoot = fileURLToPath(new URL('../../../../', import.meta.url))

/** Roomy limits: tests that are not about limits must not meet them. */
export const testLimits: SandboxLimits = { cpus: 2, memoryMB: 2048, pids: 2048 }

/** A launched sandbox with what a test needs to talk to it and check on it. */
export interface TestSandbox extends LaunchedSandbox {
  id: string
  token: string
  homeDir: string
}

/** A launcher on a fresh state folder that remembers its log and cleans up everything it started. */
export interface TestLauncher {
  launcher: SandboxLauncher
  stateDir: string
  logs: string[]
  launch(envVars?: Record<string, string>, limits?: SandboxLimits): Promise<TestSandbox>
  /** Kills every sandbox still running and removes the temporary folders. */
  dispose(): Promise<void>
}

/** Creates a launcher for a test; `options` override the defaults (isolation, freezer...). */
export async function createTestLauncher(
  options: Partial<SandboxLauncherOptions> = {},
): Promise<TestLauncher> {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'launcher-test-')))
  const stateDir = join(scratch, 'state')
  const logs: string[] = []
  const homesRoot = join(scratch, 'sandboxes')
  const launcher = await createSandboxLauncher({
    projectRoot,
    stateDir,
    homesRoot,
    log: (line) => logs.push(line),
    ...options,
  })
  const sandboxes: TestSandbox[] = []
  return {
    launcher,
    stateDir,
    logs,
    launch: async (envVars = {}, limits = testLimits) => {
      const id = randomBytes(10).toString('hex')
      const token = `tok-${randomBytes(12).toString('hex')}`
      // As the platform keeps them: <sandboxes>/<id>/home, root's home beside it.
      const homeDir = join(homesRoot, id, 'home')
      mkdirSync(homeDir, { recursive: true })
      const sandbox = await launcher.launch({ id, homeDir, accessToken: token, envVars, limits })
      // Tests call the runtime on a loopback port: with a network of its own, a bridge to its socket.
      const test = Object.assign(sandbox, { id, token, homeDir, port: await runtimePort(sandbox) })
      sandboxes.push(test)
      return test
    },
    dispose: async () => {
      await Promise.all(sandboxes.map((s) => s.kill()))
      await launcher.release?.()
      rmSync(scratch, { recursive: true, force: true })
    },
  }
}
