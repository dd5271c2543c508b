// Sandboxes in bubblewrap, checked from the inside through each runtime's own API.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mountPoints } from '../mounts'
import {
  createTestLauncher,
  projectRoot,
  type TestLauncher,
  type TestSandbox,
} from './testing/launcherFixture'
import { runBash, startTerminal } from './testing/sandboxCalls'
import { waitFor } from './waitFor'

describe('sandboxes in bubblewrap', () => {
  let kit: TestLauncher
  let a: TestSandbox
  let b: TestSandbox
  beforeAll(async () => {
    kit = await createTestLauncher()
    ;[a, b] = await Promise.all([
      kit.launch({ GREETING: 'hello from a', E2B_SANDBOX: 'true' }),
      kit.launch({ GREETING: 'hello from b' }),
    ])
  })
  afterAll(() => kit?.dispose())

  it('says it isolates with bubblewrap, without a warning', () => {
    expect(kit.launcher.isolation).toBe('bubblewrap')
    expect(kit.launcher.warning).toBeUndefined()
  })

  it('runs processes as user (1000) with HOME /home/user, on host "sandbox", with the env vars', async () => {
    const run = await runBash(
      a,
      'id -un; id -u; id -g; echo "$HOME"; pwd; hostname; echo "$GREETING|$E2B_SANDBOX"',
    )
    expect(run.stdout.split('\n')).toEqual([
      'user',
      '1000',
      '1000',
      '/home/user',
      '/home/user',
      'sandbox',
      'hello from a|true',
      '',
    ])
    expect((await runBash(b, 'echo "$GREETING"')).stdout).toBe('hello from b\n')
  })

  it('refuses calls without the token it read from stdin', async () => {
    const res = await fetch(`http://127.0.0.1:${a.port}/process.Process/List`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(401)
  })

  it('keeps each home on disk and out of the other sandbox', async () => {
    writeFileSync(join(b.homeDir, 'from-host.txt'), 'seeded\n')
    expect((await runBash(a, 'echo written-in-a > ~/from-a.txt')).exitCode).toBe(0)
    expect(readFileSync(join(a.homeDir, 'from-a.txt'), 'utf8')).toBe('written-in-a\n')
    const inB = await runBash(b, 'ls -A /home/user; test -e /home/user/from-a.txt && echo visible')
    expect(inB.stdout).toBe('from-host.txt\n')
    // Neither can reach the other's home by its host path.
    expect((await runBash(b, `ls ${a.homeDir}`)).exitCode).not.toBe(0)
  })

  it('gives each sandbox its own PID namespace', async () => {
    const marker = await runBash(a, 'nohup sleep 4242 >/dev/null 2>&1 & echo started')
    expect(marker.stdout).toBe('started\n')
    const listing = 'for f in /proc/[0-9]*/cmdline; do tr "\\0" " " < "$f" 2>/dev/null; echo; done'
    const inA = await runBash(a, listing)
    const inB = await runBash(b, listing)
    expect(inA.stdout).toContain('sleep 4242')
    expect(inB.stdout).not.toContain('sleep 4242')
    const count = await runBash(b, "ls /proc | grep -c '^[0-9]'")
    expect(Number(count.stdout)).toBeLessThan(10)
    // A's outermost process has a host pid that means nothing inside B.
    expect((await runBash(b, `test -e /proc/${a.pid} && echo seen`)).stdout).toBe('')
  })

  it('keeps the host system read-only', async () => {
    const run = await runBash(
      a,
      'for p in /usr/x /etc/x /x /opt/sandbox-runtime/app/x; do touch "$p" 2>/dev/null && echo "wrote $p"; done; echo checked',
    )
    expect(run.stdout).toBe('checked\n')
  })

  it('hides the platform state, the project and the host secrets', async () => {
    const run = await runBash(
      a,
      [kit.stateDir, projectRoot, join(projectRoot, 'server')]
        .map((p) => `ls ${p} >/dev/null 2>&1 && echo "reached ${p}"`)
        .concat('cat /etc/shadow /etc/gshadow 2>/dev/null', 'echo checked')
        .join('; '),
    )
    expect(run.stdout).toBe('checked\n')
  })

  it('gives each sandbox a private /tmp', async () => {
    expect((await runBash(a, `echo a > /tmp/private-${a.id}`)).exitCode).toBe(0)
    expect((await runBash(a, `cat /tmp/private-${a.id}`)).stdout).toBe('a\n')
    expect((await runBash(b, `test -e /tmp/private-${a.id} && echo seen`)).stdout).toBe('')
    expect(existsSync(`/tmp/private-${a.id}`)).toBe(false)
  })

  it('keeps the token out of every command line and environment inside', async () => {
    // The shell gets the token only base64-encoded and keeps it in a variable: no argv holds it.
    const encoded = Buffer.from(a.token).toString('base64')
    const run = await runBash(
      a,
      `t=$(base64 -d <<< '${encoded}'); read=0; runtime=0
      for f in /proc/[0-9]*/cmdline /proc/[0-9]*/environ; do
        c=$(tr -d '\\0' < "$f" 2>/dev/null) || continue
        read=$((read+1))
        [[ $c == *runtime.mjs* ]] && runtime=$((runtime+1))
        [[ $c == *"$t"* ]] && echo "token in $f"
      done
      echo "read $read, runtime $runtime"`,
    )
    expect(run.stdout).not.toContain('token in')
    expect(run.stdout).toMatch(/^read \d+, runtime [1-9]/m)
    expect(kit.logs.join('\n')).not.toContain(a.token)
    expect(kit.logs.join('\n')).not.toContain(b.token)
  })

  it('runs an interactive bash in a terminal', async () => {
    const term = await startTerminal(a, '/bin/bash', ['-i'], { cols: 100, rows: 30 })
    try {
      await term.type('tty; stty size; echo "done-$((6 * 7))"\n')
      await waitFor(() => term.output().includes('done-42'), 'the shell to answer')
      expect(term.output()).toMatch(/\/dev\/pts\/\d+/)
      expect(term.output()).toContain('30 100')
      expect(term.output()).toContain('user@sandbox')
      await term.type('exit\n')
      await term.ended
    } finally {
      term.close()
    }
  })

  it('logs the runtime, one line per event, with the sandbox id', () => {
    expect(kit.logs).toContainEqual(
      expect.stringMatching(new RegExp(`^sandbox ${a.id}: runtime: listening on`)),
    )
  })

  it('has let go of the system layers by the time a runtime that died on its own counts as exited', async () => {
    const c = await kit.launch()
    const systemDir = join(dirname(c.homeDir), 'system')
    const layersOf = () => [...mountPoints()].filter((point) => point.startsWith(`${systemDir}/`))
    expect(layersOf().length).toBeGreaterThan(0)
    process.kill(c.pid, 'SIGKILL')
    await c.exited
    // Whoever waits on `exited` (the manager, then a close that removes the data folder) finds
    // nothing of the sandbox mounted.
    expect(layersOf()).toEqual([])
  })
})
