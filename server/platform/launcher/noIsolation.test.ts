// Without bubblewrap (turned off, or missing) sandboxes still run, and the launcher says so.
import { userInfo } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchRuntime } from './launchRuntime'
import { readProcEntry } from './procTable'
import { signalFreezer } from './signalFreezer'
import { createTestLauncher, type TestLauncher, testLimits } from './testing/launcherFixture'
import { runBash, startTerminal } from './testing/sandboxCalls'
import { waitFor } from './waitFor'

describe('isolation turned off', () => {
  let kit: TestLauncher
  beforeAll(async () => {
    kit = await createTestLauncher({ isolation: 'none' })
  })
  afterAll(() => kit?.dispose())

  it('says sandboxes are not isolated, and why', () => {
    expect(kit.launcher.isolation).toBe('none')
    expect(kit.launcher.warning).toMatch(/NOT isolated: isolation is turned off by configuration/)
    expect(kit.logs.join('\n')).toContain('NOT isolated')
  })

  it('runs the runtime on the host with the home, token and env vars it was given', async () => {
    const sb = await kit.launch({ GREETING: 'plain' })
    const run = await runBash(sb, 'id -un; echo "$HOME"; pwd; echo "$GREETING"')
    expect(run.stdout).toBe(`${userInfo().username}\n${sb.homeDir}\n${sb.homeDir}\nplain\n`)
    const anonymous = await fetch(`http://127.0.0.1:${sb.port}/process.Process/List`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(anonymous.status).toBe(401)
    expect(kit.logs.join('\n')).not.toContain(sb.token)
  })

  it('kill() ends the runtime and the processes it started', async () => {
    const sb = await kit.launch()
    const term = await startTerminal(sb, 'sleep', ['4545'])
    try {
      expect(await readProcEntry(term.pid)).toBeDefined()
      await sb.kill()
      await sb.exited
      const gone = async (pid: number) => {
        const state = (await readProcEntry(pid))?.state
        return state === undefined || state === 'Z'
      }
      expect(await gone(sb.pid)).toBe(true)
      // The terminal's process is no child of ours: its reaping is up to the host's init.
      await waitFor(() => gone(term.pid), 'the terminal process to end')
    } finally {
      term.close()
    }
  })
})

describe('bubblewrap missing', () => {
  let kit: TestLauncher
  beforeAll(async () => {
    kit = await createTestLauncher({ bwrapPath: '/nonexistent/bwrap' })
  })
  afterAll(() => kit?.dispose())

  it('falls back to no isolation with a warning that names the missing package, and still runs', async () => {
    expect(kit.launcher.isolation).toBe('none')
    expect(kit.launcher.warning).toMatch(
      /NOT isolated: \/nonexistent\/bwrap is not installed \(Debian package 'bubblewrap'\)/,
    )
    const sb = await kit.launch()
    expect((await runBash(sb, 'echo alive')).stdout).toBe('alive\n')
  })
})

describe('a runtime that cannot start', () => {
  it('rejects with what went wrong, quoting its stderr', async () => {
    const logs: string[] = []
    const failing = launchRuntime({
      id: 'broken',
      command: '/nonexistent/runtime',
      args: [],
      stdin: 'token\n{}\n',
      freezer: signalFreezer(),
      scope: 'descendants',
      log: (line) => logs.push(line),
    })
    await expect(failing).rejects.toThrow(
      /^sandbox broken: the runtime ended before listening \(exit code 127\):\n.*\/nonexistent\/runtime/,
    )
    expect(logs.at(-1)).toBe('sandbox broken: runtime ended (exit code 127)')
  })

  it('rejects a token that would not fit on one line of stdin', async () => {
    const kit = await createTestLauncher({ isolation: 'none' })
    try {
      await expect(
        kit.launcher.launch({
          id: 'x',
          homeDir: kit.stateDir,
          accessToken: 'a\nb',
          envVars: {},
          limits: testLimits,
        }),
      ).rejects.toThrow('the access token must be one non-empty line')
    } finally {
      await kit.dispose()
    }
  })
})
