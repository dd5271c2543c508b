// The official e2b SDK, configured only through E2B_API_URL, E2B_SANDBOX_URL and E2B_API_KEY,
// against the platform as `npm start` runs it (server/cli.ts in a process of its own).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Sandbox, SandboxNotFoundError, TimeoutError } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeFlags } from '../nodeFlags'
import { pointSdkAt } from './testing/sdkEnv'

const projectRoot = join(import.meta.dirname, '..', '..')
const apiKey = 'sdk-test-key'

/** Host pids whose command line mentions `text`. */
function processesMentioning(text: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
  return out
    .split('\n')
    .filter((line) => line.includes(text) && !line.includes('ps -eo'))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
}

describe('e2b SDK against the platform that npm start runs', () => {
  let cli: ChildProcess
  let dataDir: string
  let restoreEnv = () => {}

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'npm-start-'))
    cli = spawn(
      process.execPath,
      [
        ...nodeFlags,
        '--import',
        'tsx',
        'server/cli.ts',
        '--port',
        '0',
        '--data',
        dataDir,
        '--no-default-sandbox',
      ],
      {
        cwd: projectRoot,
        env: { ...process.env, SANDBOX_API_KEY: apiKey },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    const url = await new Promise<string>((resolve, reject) => {
      let out = ''
      cli.stdout?.on('data', (d: Buffer) => {
        out += d
        const match = out.match(/Open the IDE:\s+(http:\/\/[^/\s]+)\//)
        if (match?.[1]) resolve(match[1])
      })
      cli.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${out}`)))
    })
    restoreEnv = pointSdkAt({ url, apiKey })
  })

  afterAll(async () => {
    restoreEnv()
    const exited = new Promise((resolve) => cli.once('exit', resolve))
    cli.kill('SIGINT')
    await exited
    // Ctrl-C leaves no sandbox process behind.
    expect(processesMentioning(dataDir)).toEqual([])
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('creates a sandbox, runs commands, uses files and a PTY, pauses, resumes and kills it', async () => {
    const sandbox = await Sandbox.create({ timeoutMs: 120_000 })
    expect(await sandbox.isRunning()).toBe(true)

    const run = await sandbox.commands.run('echo "$E2B_SANDBOX_ID $(whoami) $HOME"')
    expect(run.stdout).toBe(
      `${sandbox.sandboxId} ${(await sandbox.commands.run('id -un')).stdout.trim()} /home/user\n`,
    )
    // E2B's base template has `python` as well as `python3` (here Debian's python-is-python3).
    expect((await sandbox.commands.run('python --version')).stdout).toMatch(/^Python 3\.\d+\.\d+\n$/)

    await sandbox.files.write('project/hello.txt', 'hello from the SDK\n')
    expect(await sandbox.files.read('project/hello.txt')).toBe('hello from the SDK\n')
    expect((await sandbox.files.list('project')).map((e) => e.name)).toEqual(['hello.txt'])

    let screen = ''
    const terminal = await sandbox.pty.create({
      cols: 90,
      rows: 20,
      timeoutMs: 0,
      onData: (d) => {
        screen += new TextDecoder().decode(d)
      },
    })
    await sandbox.pty.sendInput(terminal.pid, new TextEncoder().encode('stty size\n'))
    await expect.poll(() => screen).toContain('20 90')

    const counter = await sandbox.commands.run(
      'i=0; while true; do i=$((i+1)); echo $i > /tmp/count; sleep 0.1; done',
      {
        background: true,
      },
    )
    await expect.poll(async () => Number((await sandbox.files.read('/tmp/count')).trim())).toBeGreaterThan(2)

    await sandbox.pause()
    expect((await Sandbox.getInfo(sandbox.sandboxId)).state).toBe('paused')
    // The router answers 502, which the SDK reads as \`unavailable\`: a stream that cannot start
    // says the sandbox is not running; unary calls and /files say timeout.
    await expect(sandbox.commands.run('echo hi')).rejects.toBeInstanceOf(SandboxNotFoundError)
    await expect(sandbox.commands.list()).rejects.toBeInstanceOf(TimeoutError)
    await expect(sandbox.files.read('project/hello.txt')).rejects.toBeInstanceOf(TimeoutError)

    const resumed = await Sandbox.connect(sandbox.sandboxId)
    expect((await Sandbox.getInfo(sandbox.sandboxId)).state).toBe('running')
    const pids = (await resumed.commands.list()).map((p) => p.pid)
    expect(pids).toContain(counter.pid)
    expect(pids).toContain(terminal.pid)
    const before = Number((await resumed.files.read('/tmp/count')).trim())
    await expect
      .poll(async () => Number((await resumed.files.read('/tmp/count')).trim()))
      .toBeGreaterThan(before)
    expect(await resumed.files.read('project/hello.txt')).toBe('hello from the SDK\n')

    await resumed.kill()
    await expect(Sandbox.getInfo(sandbox.sandboxId)).rejects.toBeInstanceOf(SandboxNotFoundError)
  })

  it('lists sandboxes through the paginator', async () => {
    const a = await Sandbox.create({ metadata: { suite: 'list' } })
    const listed = await Sandbox.list({ query: { metadata: { suite: 'list' } } }).nextItems()
    expect(listed.map((s) => s.sandboxId)).toEqual([a.sandboxId])
    await a.kill()
  })
})
