// A sandbox's root layer: made root's with a system's empty folders, its /var/log and /var/tmp
// moved in from before, and checked before each start so that bwrap, following a link the
// sandbox's root made, never makes anything outside the sandbox.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { prepareRootLayer, rootLayerName, settleRootLayer, type WritableLayer } from './sandboxRootLayer'
import { sandboxHostIds } from './sandboxUserNamespace'

const links = [
  { path: '/bin', symlinkTo: 'usr/bin' },
  { path: '/lib64', symlinkTo: 'usr/lib64' },
  { path: '/lib' },
]

/** Mode and owner of a path, as `stat -c '%a %u'` would say. */
const modeOf = (path: string) => {
  const stat = lstatSync(path)
  return `${(stat.mode & 0o7777).toString(8)} ${stat.uid}`
}

// Giving files to the sandboxes' ids takes root, as the launcher that uses this has.
describe.skipIf(process.getuid?.() !== 0)('sandbox root layer', () => {
  let scratch: string
  let systemDir: string
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'root-layer-test-'))
    systemDir = join(scratch, 'system')
    mkdirSync(systemDir)
  })
  afterEach(() => rmSync(scratch, { recursive: true, force: true }))

  it("starts root's, with a Debian system's empty folders and their usual modes", () => {
    const root = prepareRootLayer(systemDir)
    expect(root).toBe(join(systemDir, rootLayerName))
    const root0 = sandboxHostIds.root
    expect(modeOf(root)).toBe(`755 ${root0}`)
    expect(readdirSync(root).sort()).toEqual(['media', 'mnt', 'opt', 'srv', 'var'])
    expect(modeOf(join(root, 'srv'))).toBe(`755 ${root0}`)
    expect(modeOf(join(root, 'var'))).toBe(`755 ${root0}`)
    expect(modeOf(join(root, 'var/log'))).toBe(`755 ${root0}`)
    expect(modeOf(join(root, 'var/tmp'))).toBe(`1777 ${root0}`)
    // Again, with the sandbox's changes in it: nothing is undone, nothing made again.
    writeFileSync(join(root, 'var/log/app.log'), 'kept')
    rmSync(join(root, 'srv'), { recursive: true })
    prepareRootLayer(systemDir)
    expect(existsSync(join(root, 'var/log/app.log'))).toBe(true)
    expect(existsSync(join(root, 'srv'))).toBe(false)
  })

  it('finishes a root whose making was cut short', () => {
    mkdirSync(join(systemDir, `${rootLayerName}.new/var/log`), { recursive: true })
    writeFileSync(join(systemDir, `${rootLayerName}.new/var/log/moved.log`), 'moved before the cut')
    const root = prepareRootLayer(systemDir)
    expect(existsSync(join(root, 'var/log/moved.log'))).toBe(true)
    expect(modeOf(join(root, 'var/tmp')).split(' ')[0]).toBe('1777')
    expect(existsSync(`${root}.new`)).toBe(false)
  })

  it('moves in the /var/log and /var/tmp a sandbox had beside its root before', () => {
    for (const name of ['var-log', 'var-tmp']) {
      mkdirSync(join(systemDir, name))
      writeFileSync(join(systemDir, name, 'old.txt'), name)
    }
    const root = prepareRootLayer(systemDir)
    expect(existsSync(join(root, 'var/log/old.txt'))).toBe(true)
    expect(existsSync(join(root, 'var/tmp/old.txt'))).toBe(true)
    expect(modeOf(join(root, 'var/tmp')).split(' ')[0]).toBe('1777')
    expect(existsSync(join(systemDir, 'var-log'))).toBe(false)
  })

  it("makes the root's links into /usr, and mends one the sandbox changed", () => {
    const root = prepareRootLayer(systemDir)
    settleRootLayer([{ host: root, at: '/' }], [], links)
    expect(readlinkSync(join(root, 'bin'))).toBe('usr/bin')
    expect(readlinkSync(join(root, 'lib64'))).toBe('usr/lib64')
    expect(existsSync(join(root, 'lib'))).toBe(false)
    rmSync(join(root, 'bin'))
    symlinkSync('/elsewhere', join(root, 'bin'))
    settleRootLayer([{ host: root, at: '/' }], [], links)
    expect(readlinkSync(join(root, 'bin'))).toBe('usr/bin')
  })

  it("removes a link the sandbox's root put on the way to a mount point, so nothing is made outside", () => {
    const root = prepareRootLayer(systemDir)
    // Another sandbox's folder, which a link inside would lead bwrap to.
    const elsewhere = join(scratch, 'other-sandbox')
    mkdirSync(elsewhere)
    rmSync(join(root, 'opt'), { recursive: true })
    symlinkSync(elsewhere, join(root, 'opt'))
    symlinkSync(elsewhere, join(root, 'home'))
    settleRootLayer([{ host: root, at: '/' }], ['/opt/sandbox-runtime/app', '/home', '/var/lib/dpkg'], links)
    expect(modeOf(join(root, 'opt'))).toBe(`755 ${sandboxHostIds.root}`)
    expect(modeOf(join(root, 'opt/sandbox-runtime'))).toBe(`755 ${sandboxHostIds.root}`)
    // The mount point itself is bwrap's to make; the folders on the way are open to all.
    expect(existsSync(join(root, 'opt/sandbox-runtime/app'))).toBe(false)
    expect(existsSync(join(root, 'home'))).toBe(false)
    expect(modeOf(join(root, 'var/lib'))).toBe(`755 ${sandboxHostIds.root}`)
    expect(existsSync(join(elsewhere, 'sandbox-runtime'))).toBe(false)
  })

  it("looks for a path in the deepest layer, keeping the host's own links there", () => {
    const root = prepareRootLayer(systemDir)
    const etc = join(scratch, 'etc-merged')
    const lower = join(scratch, 'etc-host')
    const elsewhere = join(scratch, 'other-sandbox')
    for (const dir of [etc, lower, elsewhere]) mkdirSync(dir)
    // A link the host has in its /etc too is the host's: bwrap may follow it.
    symlinkSync('ssl-real', join(lower, 'ssl'))
    symlinkSync('ssl-real', join(etc, 'ssl'))
    // One only the sandbox has is not.
    symlinkSync(elsewhere, join(etc, 'default'))
    const layers: WritableLayer[] = [
      { host: root, at: '/' },
      { host: etc, at: '/etc', lower },
    ]
    settleRootLayer(layers, ['/etc', '/etc/ssl/private', '/etc/default/x'], links)
    expect(readlinkSync(join(etc, 'ssl'))).toBe('ssl-real')
    expect(lstatSync(join(etc, 'default')).isDirectory()).toBe(true)
    // /etc's own mount point is in the root.
    expect(existsSync(join(root, 'etc'))).toBe(false)
    expect(existsSync(join(elsewhere, 'x'))).toBe(false)
  })
})
