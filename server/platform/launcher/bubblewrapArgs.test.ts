import { describe, expect, it } from 'vitest'
import { bubblewrapArgs, bubblewrapMountPoints } from './bubblewrapArgs'

const layout = {
  homeDir: '/data/sandboxes/abc/home',
  system: {
    rootEntries: [{ path: '/bin', symlinkTo: 'usr/bin' }, { path: '/lib' }],
    linkedFiles: ['/run/resolve/resolv.conf'],
  },
  etc: {
    passwd: '/state/passwd',
    group: '/state/group',
    hosts: '/state/hosts',
    emptyFile: '/state/empty-file',
    emptyDir: '/state/empty',
  },
  hidden: { files: ['/etc/shadow'], dirs: ['/etc/ssl/private'] },
  bundle: {
    file: '/repo/dist/runtime/runtime.mjs',
    dir: '/repo/dist/runtime',
    nativePackages: [{ name: 'node-pty', dir: '/repo/node_modules/node-pty' }],
  },
  nodePath: '/usr/bin/node',
  socketDir: '/tmp/sandbox-sockets-x/abc',
}

/** The option pairs and triples of an argument list, as one string each, for lookups. */
const joined = (args: string[]) => args.join(' ')

describe('bubblewrapArgs', () => {
  it('makes namespaces for user, PID, IPC and host name, and shares the network unless asked', () => {
    const { args } = bubblewrapArgs(layout)
    const text = joined(args)
    expect(text).toContain('--unshare-user --uid 1000 --gid 1000 --unshare-pid --unshare-ipc --unshare-uts')
    expect(text).toContain('--hostname sandbox --die-with-parent')
    expect(args).not.toContain('--unshare-net')
    expect(args).not.toContain('--unshare-all')
    expect(args).not.toContain('--new-session')
  })

  it('gives a network of its own on request, and waits to be connected before it starts', () => {
    const text = joined(bubblewrapArgs({ ...layout, network: { infoFd: 5, blockFd: 6 } }).args)
    expect(text).toContain('--die-with-parent --unshare-net --info-fd 5 --block-fd 6 --ro-bind /usr /usr')
    expect(text).toContain('--bind /tmp/sandbox-sockets-x/abc /opt/sandbox-runtime/run')
  })

  it('binds the system read-only, the home read-write, and blanks over host secrets', () => {
    const text = joined(bubblewrapArgs(layout).args)
    expect(text).toContain(
      '--ro-bind /usr /usr --symlink usr/bin /bin --ro-bind /lib /lib --ro-bind /etc /etc',
    )
    expect(text).toContain('--ro-bind /state/empty-file /etc/shadow --ro-bind /state/empty /etc/ssl/private')
    expect(text).toContain('--ro-bind /state/passwd /etc/passwd --ro-bind /state/group /etc/group')
    expect(text).toContain('--ro-bind-try /run/resolve/resolv.conf /run/resolve/resolv.conf')
    expect(text).toContain('--proc /proc --dev /dev --perms 1777 --tmpfs /tmp')
    expect(text).toContain('--bind /data/sandboxes/abc/home /home/user')
    expect(text.endsWith('--remount-ro / --chdir /home/user')).toBe(true)
  })

  it('shows the sandbox only the bundle and the native packages of the project', () => {
    const { args, node, runtime } = bubblewrapArgs(layout)
    const fromRepo = args.filter((a) => a.startsWith('/repo'))
    expect(fromRepo).toEqual(['/repo/dist/runtime', '/repo/node_modules/node-pty'])
    expect(joined(args)).toContain('--ro-bind /repo/dist/runtime /opt/sandbox-runtime/app')
    expect(joined(args)).toContain(
      '--ro-bind /repo/node_modules/node-pty /opt/sandbox-runtime/node_modules/node-pty',
    )
    expect(node).toBe('/usr/bin/node')
    expect(runtime).toBe('/opt/sandbox-runtime/app/runtime.mjs')
  })

  it('binds a node that lives outside /usr', () => {
    const { args, node } = bubblewrapArgs({ ...layout, nodePath: '/home/dev/.nvm/bin/node' })
    expect(node).toBe('/opt/sandbox-runtime/bin/node')
    expect(joined(args)).toContain('--ro-bind /home/dev/.nvm/bin/node /opt/sandbox-runtime/bin/node')
  })

  it("mounts everything in a root of the sandbox's own, which stays writable and keeps its links", () => {
    const root = {
      capabilities: ['CAP_CHOWN'],
      rootHome: '/data/sandboxes/abc/root',
      system: [['/data/sandboxes/abc/system/usr/merged', '/usr']] as [string, string][],
      ownRoot: '/data/sandboxes/abc/system/rootfs',
    }
    const { args } = bubblewrapArgs({ ...layout, root })
    const text = joined(args)
    // Before any other mount, so every other one lands in it.
    expect(text).toContain(
      '--die-with-parent --bind /data/sandboxes/abc/system/rootfs / --bind /data/sandboxes/abc/system/usr/merged /usr --ro-bind /lib /lib',
    )
    expect(args).not.toContain('--symlink')
    expect(args).not.toContain('--remount-ro')
    expect(text.endsWith('--chdir /home/user')).toBe(true)
    // Without one, the root is bwrap's, read-only, and the links are bwrap's to make.
    const { ownRoot: _, ...hostRoot } = root
    const without = joined(bubblewrapArgs({ ...layout, root: hostRoot }).args)
    expect(without).toContain('--symlink usr/bin /bin')
    expect(without).toContain('--remount-ro /')
  })

  it('names every path bwrap mounts on or makes, and refuses an option it does not know', () => {
    const { args } = bubblewrapArgs({ ...layout, network: { infoFd: 5, blockFd: 6 } })
    const points = bubblewrapMountPoints(args)
    expect(points.slice(0, 4)).toEqual(['/usr', '/bin', '/lib', '/etc'])
    expect(points).toEqual(
      expect.arrayContaining([
        '/etc/shadow',
        '/home',
        '/home/user',
        '/opt/sandbox-runtime/app',
        '/opt/sandbox-runtime/node_modules/node-pty',
        '/opt/sandbox-runtime/run',
        '/tmp',
      ]),
    )
    expect(points.every((p) => p.startsWith('/'))).toBe(true)
    expect(() => bubblewrapMountPoints([...args, '--overlay-src', '/x'])).toThrow(
      /unknown option --overlay-src/,
    )
  })
})
