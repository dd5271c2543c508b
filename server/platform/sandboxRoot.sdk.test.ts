// A sandbox has a root of its own, as E2B's do: the runtime runs file and process calls as the
// user the request names (`user` by default, `root` when asked), `user` has passwordless `sudo`,
// and root is an unprivileged id of the host's, with nothing of the host's to command.
// Through the official SDK, against a real platform.
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Sandbox } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loopDevicesUnder, mountsUnder } from './disk/staleMounts'
import { sandboxHostIds } from './launcher/sandboxUserNamespace'
import { startTestPlatform, type TestPlatform } from './testing/platformFixture'
import { pointSdkAt } from './testing/sdkEnv'

describe('root and sudo in a sandbox', () => {
  let tp: TestPlatform
  let sandbox: Sandbox
  let other: Sandbox
  let restoreEnv = () => {}
  /** Whether this machine gives sandboxes a root (the platform must be root here). */
  const hasRoot = () => tp.platform.launcher.root === 'sudo'

  beforeAll(async () => {
    tp = await startTestPlatform()
    restoreEnv = pointSdkAt(tp)
    ;[sandbox, other] = await Promise.all([Sandbox.create(), Sandbox.create()])
  }, 60_000)
  afterAll(async () => {
    restoreEnv()
    await tp?.close()
  })

  it('says whether sandboxes have a root, and why not', () => {
    if (process.getuid?.() === 0 && tp.platform.launcher.isolation === 'bubblewrap')
      expect(hasRoot()).toBe(true)
    if (!hasRoot() && tp.platform.launcher.isolation === 'bubblewrap')
      expect(tp.platform.launcher.rootWarning).toMatch(/no root and no sudo/)
  })

  it('runs commands as user by default and as root when asked', async () => {
    if (!hasRoot()) return
    expect((await sandbox.commands.run('id -un; id -u; echo $HOME')).stdout).toBe('user\n1000\n/home/user\n')
    const root = await sandbox.commands.run('id -un; id -u; echo $HOME; pwd', { user: 'root' })
    expect(root.stdout).toBe('root\n0\n/root\n/root\n')
  })

  it("puts sudo on every user's PATH, login shells' included", async () => {
    if (!hasRoot()) return
    expect((await sandbox.commands.run('command -v sudo')).stdout).toBe('/usr/local/bin/sudo\n')
  })

  it('gives user passwordless sudo: the command, its env, stdin, exit code and stderr', async () => {
    if (!hasRoot()) return
    expect((await sandbox.commands.run('sudo -n id -u')).stdout).toBe('0\n')
    expect((await sandbox.commands.run('FOO=bar; sudo echo "$FOO"')).stdout).toBe('bar\n')
    expect(
      (
        await sandbox.commands.run(
          'echo piped | sudo tee /root/piped.txt >/dev/null; sudo cat /root/piped.txt',
        )
      ).stdout,
    ).toBe('piped\n')
    expect(
      (await sandbox.commands.run('sudo -u user id -un; sudo -E env | grep -c ^SUDO_USER=user')).stdout,
    ).toBe('user\n1\n')
    const failed = await sandbox.commands
      .run('sudo sh -c "echo oops >&2; exit 3"')
      .catch((err) => err.result ?? err)
    expect(failed).toMatchObject({ exitCode: 3, stderr: 'oops\n' })
    const missing = await sandbox.commands.run('sudo no-such-command').catch((err) => err.result ?? err)
    expect(missing.exitCode).toBe(127)
    // In a terminal, with the terminal's size.
    let screen = ''
    const terminal = await sandbox.pty.create({
      cols: 91,
      rows: 27,
      onData: (data) => {
        screen += new TextDecoder().decode(data)
      },
    })
    await sandbox.pty.sendInput(
      terminal.pid,
      new TextEncoder().encode('sudo sh -c "tty; stty size; id -u"; exit\n'),
    )
    await terminal.wait().catch(() => {})
    expect(screen).toMatch(/\/dev\/pts\/\d+\s+27 91\s+0\s/)
  })

  it('writes files as the user asked, root where only root may', async () => {
    if (!hasRoot()) return
    await sandbox.files.write('/root/secret.txt', 'for root', { user: 'root' })
    expect(await sandbox.files.read('/root/secret.txt', { user: 'root' })).toBe('for root')
    // The runtime, as envd, reads and writes for any user without checking (envd-api.md §2.3);
    // the user's own commands are held to the file's permissions.
    const peek = await sandbox.commands.run('cat /root/secret.txt').catch((err) => err.result ?? err)
    expect(peek.stderr).toContain('Permission denied')
    await sandbox.files.write('mine.txt', 'for user')
    expect(
      (await sandbox.commands.run('stat -c %U:%G /home/user/mine.txt /root/secret.txt', { user: 'root' }))
        .stdout,
    ).toBe('user:user\nroot:root\n')
    // On the host, neither is root's: the sandbox's ids are unprivileged ones.
    const home = tp.platform.manager.homeDir(sandbox.sandboxId)
    expect(statSync(join(home, 'mine.txt')).uid).toBe(sandboxHostIds.user)
    expect(statSync(join(home, '..', 'root', 'secret.txt')).uid).toBe(sandboxHostIds.root)
  })

  it("gives root nothing of the host's or another sandbox's", async () => {
    if (!hasRoot()) return
    const tried = await sandbox.commands.run(
      [
        'mount -t tmpfs none /tmp 2>&1 | head -1',
        'touch /usr/bin/planted-by-root && echo planted-in-its-own-copy',
        'kill -0 1 && echo own-init-alive',
        'ls /proc | grep -c "^[0-9]" ',
      ].join('; '),
      { user: 'root' },
    )
    const [mount, plant, init] = tried.stdout.split('\n')
    expect(mount).toMatch(/permission denied|must be superuser|not permitted/i)
    // Where the system is the host's read-only, root cannot change it; where it is the sandbox's
    // own copy, the change stays there: never on the host.
    if (tp.platform.launcher.system === 'own-copy') expect(plant).toBe('planted-in-its-own-copy')
    else expect(plant).toMatch(/Read-only file system|Permission denied/)
    expect(existsSync('/usr/bin/planted-by-root')).toBe(false)
    expect(init).toBe('own-init-alive')
    // The other sandbox's files stay out of reach of this one's root.
    await other.files.write('theirs.txt', 'not yours')
    const look = await sandbox.commands.run(
      `find / -name theirs.txt -not -path '/proc/*' 2>/dev/null | head -1`,
      {
        user: 'root',
      },
    )
    expect(look.stdout).toBe('')
  })

  it("gives each sandbox its own writable system: root's changes stay in it, across a pause", async () => {
    if (tp.platform.launcher.system !== 'own-copy') return
    await sandbox.commands.run(
      'echo planted > /usr/local/share/planted.txt; echo "# mine" >> /etc/bash.bashrc',
      {
        user: 'root',
      },
    )
    expect((await sandbox.commands.run('cat /usr/local/share/planted.txt')).stdout).toBe('planted\n')
    const elsewhere = await other.commands
      .run('cat /usr/local/share/planted.txt; tail -1 /etc/bash.bashrc', {
        user: 'root',
      })
      .catch((err) => err.result ?? err)
    expect(elsewhere.stdout).not.toContain('planted')
    expect(elsewhere.stdout).not.toContain('# mine')
    expect(existsSync('/usr/local/share/planted.txt')).toBe(false)
    await sandbox.pause()
    const again = await Sandbox.connect(sandbox.sandboxId)
    expect(
      (await again.commands.run('cat /usr/local/share/planted.txt; tail -1 /etc/bash.bashrc')).stdout,
    ).toBe('planted\n# mine\n')
    // A user without sudo still cannot change the system.
    const denied = await again.commands.run('touch /usr/bin/planted').catch((err) => err.result ?? err)
    expect(denied.stderr).toContain('Permission denied')
  })

  it('gives each sandbox a writable root of its own: /0 for the SDK, /opt for sudo, kept across a pause', async () => {
    if (tp.platform.launcher.system !== 'own-copy') return
    // What a host that had them would spoil: the check that they stay off the host.
    expect(existsSync('/0') || existsSync('/2') || existsSync('/opt/tool')).toBe(false)
    // As envd, the runtime makes the folders as root and gives them to the user who asked (the
    // SDK's own `write multiple files` writes /0, /2, ... so).
    const written = await sandbox.files.write([
      { path: '/0/x.txt', data: 'zero' },
      { path: '/2/deep/y.txt', data: 'two' },
    ])
    expect(written.map((info) => info.path)).toEqual(['/0/x.txt', '/2/deep/y.txt'])
    expect(await sandbox.files.read('/2/deep/y.txt')).toBe('two')
    expect((await sandbox.commands.run('stat -c %U:%a /0 /0/x.txt /2/deep')).stdout).toBe(
      'user:755\nuser:644\nuser:755\n',
    )
    const made = await sandbox.commands.run(
      'sudo mkdir /opt/tool && sudo sh -c "echo s > /srv/s.txt; mkdir -p /var/lib/mine" && echo t > /var/tmp/t.txt && ls /opt /srv /var/lib',
    )
    expect(made.stdout).toMatch(/^tool$/m)
    expect(made.stdout).toMatch(/^s\.txt$/m)
    expect(made.stdout).toMatch(/^mine$/m)
    // / is root's, as on E2B: the user's own commands need sudo to write there.
    const denied = await sandbox.commands.run('mkdir /1').catch((err) => err.result ?? err)
    expect(denied.stderr).toContain('Permission denied')
    // Not in another sandbox, nor on the host.
    const elsewhere = await other.commands.run(
      'for p in /0 /2 /opt/tool /srv/s.txt /var/lib/mine /var/tmp/t.txt; do test -e $p && echo "$p"; done; true',
      { user: 'root' },
    )
    expect(elsewhere.stdout).toBe('')
    for (const path of ['/0', '/2', '/opt/tool', '/srv/s.txt', '/var/lib/mine'])
      expect(existsSync(path)).toBe(false)
    await sandbox.pause()
    const again = await Sandbox.connect(sandbox.sandboxId)
    expect(
      (
        await again.commands.run(
          'cat /0/x.txt; echo; cat /2/deep/y.txt; echo; cat /srv/s.txt /var/tmp/t.txt; ls -d /opt/tool /var/lib/mine',
        )
      ).stdout,
    ).toBe('zero\ntwo\ns\nt\n/opt/tool\n/var/lib/mine\n')
  })

  it('keeps the data folder and the project out of view in the writable root', async () => {
    if (tp.platform.launcher.system !== 'own-copy') return
    const projectRoot = join(import.meta.dirname, '..', '..')
    const look = await sandbox.commands.run(
      `for p in '${projectRoot}' '${tp.dataDir}'; do test -e "$p" && echo "$p"; done; true`,
      { user: 'root' },
    )
    expect(look.stdout).toBe('')
  })

  it('installs a Debian package with sudo apt-get in one sandbox, and only there', async () => {
    if (tp.platform.launcher.system !== 'own-copy' || tp.platform.launcher.network !== 'own') return
    const installed = await sandbox.commands
      .run(
        'sudo apt-get install -y --no-install-recommends tree >/tmp/apt.log 2>&1; echo "apt=$?"; tail -3 /tmp/apt.log; tree --version',
        {
          timeoutMs: 120_000,
        },
      )
      .catch((err) => err.result ?? err)
    expect(installed.stdout, installed.stdout + installed.stderr).toContain('apt=0')
    expect(installed.stdout).toMatch(/tree v\d/)
    const absent = await other.commands.run('command -v tree || echo none').catch((err) => err.result ?? err)
    expect(absent.stdout).toBe('none\n')
    expect(existsSync('/usr/bin/tree')).toBe(false)
  }, 150_000)
})

describe("a sandbox's writable root across a restart of the stack", () => {
  let tp: TestPlatform | undefined
  let restoreEnv = () => {}
  /** A host folder anyone may write in, as /tmp: where a link planted in the sandbox points. */
  const outside = mkdtempSync(join(tmpdir(), 'root-escape-'))
  chmodSync(outside, 0o1777)
  afterAll(async () => {
    restoreEnv()
    await tp?.close()
    rmSync(outside, { recursive: true, force: true })
  })

  it('keeps what it wrote outside its home, follows no link its root planted, leaves no mount, goes with it', async () => {
    const first = await startTestPlatform()
    tp = first
    restoreEnv = pointSdkAt(first)
    if (first.platform.launcher.system !== 'own-copy') return
    const sandbox = await Sandbox.create()
    await sandbox.files.write('/0/kept.txt', 'kept')
    await sandbox.commands.run('sudo mkdir /opt/tool')
    // Root puts a link where bwrap mounts the runtime at the next start. bwrap, which stands
    // outside the sandbox then (the host's / at /oldroot), would follow it and make its mount
    // points in the host's folder: the launcher removes such a link first.
    await sandbox.commands.run(
      `mv /opt/sandbox-runtime /opt/moved && ln -s /oldroot${outside} /opt/sandbox-runtime`,
      { user: 'root' },
    )
    await first.close({ keepData: true })
    // A clean stop unmounts the sandbox's system and lets go of its images' loop devices.
    expect(mountsUnder(first.dataDir)).toEqual([])
    expect(loopDevicesUnder(first.dataDir)).toEqual([])

    tp = await startTestPlatform({ dataDir: first.dataDir })
    restoreEnv()
    restoreEnv = pointSdkAt(tp)
    const again = await Sandbox.connect(sandbox.sandboxId)
    expect((await again.commands.run('cat /0/kept.txt; echo; ls -d /opt/tool')).stdout).toBe(
      'kept\n/opt/tool\n',
    )
    expect(readdirSync(outside)).toEqual([])
    const sandboxDir = dirname(tp.platform.manager.homeDir(sandbox.sandboxId))
    expect(existsSync(sandboxDir)).toBe(true)
    await again.kill()
    expect(existsSync(sandboxDir)).toBe(false)
  }, 120_000)
})
