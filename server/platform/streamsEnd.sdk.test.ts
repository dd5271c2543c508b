// A command streaming from a sandbox that is killed or paused: the official SDK's wait() must end
// at once with its "killed or reached its end of life" error, as against E2B, not hang for the
// whole request timeout.
import { CommandExitError, Sandbox, TimeoutError } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'
import { pointSdkAt } from './testing/sdkEnv'

describe('streams of a stopped sandbox', () => {
  let tp: TestPlatform
  let restoreEnv = () => {}

  beforeAll(async () => {
    tp = await startTestPlatform()
    restoreEnv = pointSdkAt(tp)
  }, 60_000)
  afterAll(async () => {
    restoreEnv()
    await tp?.close()
  })

  /**
   * How wait() of a command without a timeout ends once `stop` stopped its sandbox (a hang is
   * caught by the test's own timeout).
   */
  async function waitAfter(stop: (sandbox: Sandbox) => Promise<unknown>) {
    const sandbox = await Sandbox.create()
    const command = await sandbox.commands.run('sleep 600', { background: true, timeoutMs: 0 })
    const ended = command.wait().then(
      () => 'finished',
      (err: unknown) => err,
    )
    await stop(sandbox)
    return { outcome: await ended, sandbox }
  }

  it('ends wait() with TimeoutError at once when the sandbox is killed', async () => {
    const { outcome } = await waitAfter((sandbox) => sandbox.kill())
    expect(outcome).toBeInstanceOf(TimeoutError)
    expect(String(outcome)).toContain('killed or reached its end of life')
  })

  it('ends wait() at once when the sandbox is paused, and the sandbox resumes with its files', async () => {
    const { outcome, sandbox } = await waitAfter(async (sandbox) => {
      await sandbox.files.write('kept.txt', 'still here')
      await sandbox.betaPause()
    })
    expect(outcome).toBeInstanceOf(TimeoutError)
    expect(outcome).not.toBeInstanceOf(CommandExitError)
    const resumed = await Sandbox.connect(sandbox.sandboxId)
    expect(await resumed.files.read('kept.txt')).toBe('still here')
    await resumed.kill()
  })
})
