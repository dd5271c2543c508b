// A command streaming from a sandbox that is killed or paused: the official SDK's wait() must end
// at once with its "killed or reached its end of life" error, as against E2B, not hang for the
// whole request timeout, nor end with Connect's "missing EndStream". Over HTTP/1.1 (the plain
// stack) and HTTP/2 (--tls, which the SDK's undici speaks), whose stream the router resets.
import { CommandExitError, Sandbox, TimeoutError } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'
import { pointSdkAt } from './testing/sdkEnv'

/**
 * How wait() of a command without a timeout ends once `stop` stopped its sandbox (a hang is
 * caught by the test's own timeout), and how long after the stop it ended.
 */
async function waitAfter(stop: (sandbox: Sandbox) => Promise<unknown>) {
  const sandbox = await Sandbox.create()
  const command = await sandbox.commands.run('sleep 60', { background: true, timeoutMs: 0 })
  const ended = command.wait().then(
    () => 'finished',
    (err: unknown) => err,
  )
  await stop(sandbox)
  const stoppedAt = Date.now()
  const outcome = await ended
  return { outcome, afterMs: Date.now() - stoppedAt, sandbox }
}

describe.each([
  { protocol: 'HTTP/1.1', tls: false },
  { protocol: 'HTTP/2 over TLS', tls: true },
])('streams of a stopped sandbox, $protocol', ({ tls }) => {
  let tp: TestPlatform
  let restoreEnv = () => {}

  beforeAll(async () => {
    tp = await startTestPlatform({ tls })
    restoreEnv = pointSdkAt(tp)
    // The stack's certificate is self-signed: this checks the protocol, not trust.
    if (tls) process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'
  }, 60_000)
  afterAll(async () => {
    restoreEnv()
    await tp?.close()
  })

  it('ends wait() within 5 s with TimeoutError when the sandbox is killed through the API', async () => {
    const { outcome, afterMs } = await waitAfter(async (sandbox) => {
      expect((await tp.api('DELETE', `/sandboxes/${sandbox.sandboxId}`)).status).toBe(204)
    })
    expect(afterMs).toBeLessThan(5_000)
    expect(outcome).toBeInstanceOf(TimeoutError)
    expect(String(outcome)).toContain('The sandbox was killed or reached its end of life')
  })

  it('ends wait() at once when the sandbox is killed by the SDK', async () => {
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
