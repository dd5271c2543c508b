// The official e2b SDK (commands and PTYs) against our runtime: it must not tell the difference.
import { CommandExitError } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { sdkSandbox } from '../testing/sdkSandbox'

describe('e2b SDK commands and PTYs against the runtime', () => {
  let rt: TestRuntime
  let sandbox: ReturnType<typeof sdkSandbox>
  beforeAll(async () => {
    rt = await startTestRuntime()
    sandbox = sdkSandbox(rt)
  })
  afterAll(() => rt.close())

  it('runs a command with stdout, stderr and exit code', async () => {
    const result = await sandbox.commands.run('echo out; echo err >&2; pwd')
    expect(result).toMatchObject({ exitCode: 0, stdout: `out\n${rt.home}\n`, stderr: 'err\n' })
  })

  it('reports a failing command as CommandExitError with its output', async () => {
    const failure = await sandbox.commands.run('echo nope >&2; exit 7').catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(CommandExitError)
    expect(failure).toMatchObject({ exitCode: 7, stderr: 'nope\n' })
  })

  it('streams output to callbacks, with envs and cwd', async () => {
    const lines: string[] = []
    await sandbox.commands.run('mkdir -p work && cd work && echo "$GREETING from $(pwd)"', {
      envs: { GREETING: 'hello' },
      onStdout: (data) => {
        lines.push(data)
      },
    })
    expect(lines.join('')).toBe(`hello from ${rt.home}/work\n`)
    const inWork = await sandbox.commands.run('pwd', { cwd: 'work' })
    expect(inWork.stdout).toBe(`${rt.home}/work\n`)
  })

  it('runs background commands, lists, connects to and kills them', async () => {
    const handle = await sandbox.commands.run('echo started; sleep 60', { background: true })
    const listed = await sandbox.commands.list()
    expect(listed.map((p) => p.pid)).toContain(handle.pid)
    const attached = await sandbox.commands.connect(handle.pid)
    expect(attached.pid).toBe(handle.pid)
    expect(await sandbox.commands.kill(handle.pid)).toBe(true)
    const ended = await handle.wait().catch((err: unknown) => err)
    expect(ended).toBeInstanceOf(CommandExitError)
    expect((ended as CommandExitError).error).toBe('signal: killed')
    expect(await sandbox.commands.kill(handle.pid)).toBe(false)
  })

  it('sends stdin to a command and closes it', async () => {
    const handle = await sandbox.commands.run('cat', { background: true, stdin: true })
    await sandbox.commands.sendStdin(handle.pid, 'piped text\n')
    await sandbox.commands.closeStdin(handle.pid)
    const result = await handle.wait()
    expect(result.stdout).toBe('piped text\n')
  })

  it('creates a PTY, types into it, resizes it and kills it', async () => {
    let output = ''
    const decoder = new TextDecoder()
    const terminal = await sandbox.pty.create({
      cols: 100,
      rows: 20,
      timeoutMs: 0,
      onData: (data) => {
        output += decoder.decode(data)
      },
    })
    await sandbox.pty.sendInput(terminal.pid, new TextEncoder().encode('stty size\n'))
    await expect.poll(() => output).toContain('20 100')
    await sandbox.pty.resize(terminal.pid, { cols: 120, rows: 33 })
    await sandbox.pty.sendInput(terminal.pid, new TextEncoder().encode('stty size; echo $TERM\n'))
    await expect.poll(() => output).toContain('33 120')
    // The echo's line may come in a later chunk than stty's.
    await expect.poll(() => output).toContain('xterm-256color')
    expect(await sandbox.pty.kill(terminal.pid)).toBe(true)
    const end = await terminal.wait().catch((err: unknown) => err)
    expect(end).toBeInstanceOf(CommandExitError)
  })

  it('reconnects to a PTY by pid and keeps it running after disconnect', async () => {
    const terminal = await sandbox.pty.create({ cols: 80, rows: 24, timeoutMs: 0, onData: () => {} })
    await terminal.disconnect()
    let output = ''
    const again = await sandbox.pty.connect(terminal.pid, {
      timeoutMs: 0,
      onData: (data) => {
        output += new TextDecoder().decode(data)
      },
    })
    await sandbox.pty.sendInput(terminal.pid, new TextEncoder().encode('echo still-here\n'))
    await expect.poll(() => output).toContain('still-here')
    await sandbox.pty.kill(again.pid)
  })
})
