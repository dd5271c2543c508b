// ripgrep as a sandbox sees it: the local stack installs Debian's `ripgrep` on the host
// (scripts/ensure.mjs), and a sandbox's system is the host's /usr, so a real sandbox launched
// in bubblewrap finds /usr/bin/rg on its PATH, through the domain layer's own process calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestLauncher,
  type TestLauncher,
} from '../../../server/platform/launcher/testing/launcherFixture'
import { SandboxSession } from '../SandboxSession'

describe('ripgrep in a sandbox', { timeout: 120_000 }, () => {
  let kit: TestLauncher
  let session: SandboxSession

  beforeAll(async () => {
    kit = await createTestLauncher()
    const sandbox = await kit.launch()
    session = new SandboxSession({
      source: 'runtime',
      runtimeUrl: `http://127.0.0.1:${sandbox.port}`,
      accessToken: sandbox.token,
    })
    session.start()
    for (let i = 0; session.getSnapshot().state.kind !== 'running'; i++) {
      if (i > 300) throw new Error('the session did not connect')
      await new Promise((r) => setTimeout(r, 100))
    }
  })
  afterAll(async () => {
    session?.dispose()
    await kit?.dispose()
  })

  it('finds rg at /usr/bin/rg on a command’s PATH, and it runs', async () => {
    // Inside bubblewrap, not on the host: the point is what a sandbox's own system holds.
    expect(kit.launcher.isolation).toBe('bubblewrap')
    const which = await session.processes.run('/bin/bash', { args: ['-l', '-c', 'command -v rg'] })
    expect(which.stdout.trim()).toBe('/usr/bin/rg')
    const version = await session.processes.run('rg', { args: ['--version'] })
    expect(version.exitCode).toBe(0)
    expect(version.stdout).toMatch(/^ripgrep \d+\.\d+/)
  })
})
