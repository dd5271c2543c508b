// A save or an upload into a really full file system (a small tmpfs and a small ext4 image, as a
// sandbox's home is on the local stack, mounted inside a test runtime's home): envd's 507 with
// what is left, the old file whole, nothing half-written and no temporary file left behind.
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NotEnoughSpaceError } from 'e2b'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { noSpaceLeft } from '../../../src/contract/runtimeExtensions'
import { isUploadTempName } from '../filesystem/uploadTempName'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { sdkSandbox } from '../testing/sdkSandbox'
import { writeFailure } from './filesError'

const kib = 1024

/** Mounts a small file system at `at`; false where this machine will not (no root, no loop devices). */
function mountSmall(kind: 'tmpfs' | 'ext4', at: string, image: string): boolean {
  try {
    if (kind === 'tmpfs') {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,nr_inodes=64', 'tmpfs', at], { stdio: 'ignore' })
    } else {
      writeFileSync(image, '')
      truncateSync(image, 8 * kib * kib)
      // 1 KiB blocks (mkfs's choice for so small a disk), nothing reserved for root, few inodes.
      execFileSync('mkfs.ext4', ['-q', '-F', '-m', '0', '-N', '64', '-J', 'size=1', image], {
        stdio: 'ignore',
      })
      execFileSync('mount', ['-o', 'loop', image, at], { stdio: 'ignore' })
    }
    return true
  } catch {
    return false
  }
}

/** Bytes an ordinary write may still take there. */
const freeBytes = (dir: string) => {
  const s = statfsSync(dir)
  return s.bavail * s.bsize
}

/** Writes zeros to `path` until the file system says it is full: nothing is free after. */
function fillUp(path: string): void {
  const fd = openSync(path, 'a')
  try {
    for (const size of [256 * kib, 4 * kib, 1]) {
      const chunk = Buffer.alloc(size)
      try {
        for (;;) writeSync(fd, chunk)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
      }
    }
  } finally {
    closeSync(fd)
  }
}

describe.each(['tmpfs', 'ext4'] as const)('a full %s file system', (kind) => {
  let rt: TestRuntime
  let disk: string
  let mounted = false
  const image = join(tmpdir(), `full-disk-${process.pid}-${kind}.img`)
  const inDisk = (name: string) => join(disk, name)
  const octet = (path: string, body: string | Uint8Array<ArrayBuffer>) =>
    fetch(`${rt.url}/files?${new URLSearchParams({ path })}`, {
      method: 'POST',
      headers: { ...rt.auth, 'Content-Type': 'application/octet-stream' },
      body,
    })
  /** What is in the file system besides ext4's own lost+found. */
  const listing = () => readdirSync(disk).filter((name) => name !== 'lost+found')
  const temporaries = () => listing().filter(isUploadTempName)

  beforeAll(async () => {
    rt = await startTestRuntime()
    disk = join(rt.home, 'disk')
    mkdirSync(disk)
    mounted = mountSmall(kind, disk, image)
  })
  afterAll(async () => {
    if (mounted) execFileSync('umount', [disk])
    rmSync(image, { force: true })
    await rt.close()
  })

  it('answers a save with envd’s 507 and what is free; the old file is whole, its inode and mode kept', async (ctx) => {
    if (!mounted) ctx.skip()
    writeFileSync(inDisk('old.txt'), 'the old text\n')
    chmodSync(inDisk('old.txt'), 0o640)
    const before = statSync(inDisk('old.txt'))
    fillUp(inDisk('filler'))

    const res = await octet('disk/old.txt', 'the new text, a little longer than the old\n')
    expect(res.status).toBe(507)
    const body = (await res.json()) as { code: number; message: string }
    expect(body.code).toBe(507)
    // envd's words first (the SDK and scripts match them), then what is left.
    expect(body.message).toMatch(/^not enough disk space available \(\d+ bytes free\)$/)
    expect(noSpaceLeft(body.message)).toBeLessThan(4 * kib)
    expect(Object.keys(body).sort()).toEqual(['code', 'message'])

    expect(readFileSync(inDisk('old.txt'), 'utf8')).toBe('the old text\n')
    const after = statSync(inDisk('old.txt'))
    expect([after.ino, after.mode, after.size]).toEqual([before.ino, before.mode, before.size])
    expect(temporaries()).toEqual([])
  })

  it('leaves nothing behind for a new file, sent raw (the IDE) or as multipart (the SDK)', async (ctx) => {
    if (!mounted) ctx.skip()
    const raw = await octet('disk/new.bin', new Uint8Array(64 * kib))
    expect(raw.status).toBe(507)
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(64 * kib)]), inDisk('multi.bin'))
    const multipart = await fetch(`${rt.url}/files`, { method: 'POST', headers: rt.auth, body: form })
    expect(multipart.status).toBe(507)
    expect(((await multipart.json()) as { message: string }).message).toMatch(
      /^not enough disk space available \(\d+ bytes free\)$/,
    )
    // The official SDK sees its own NotEnoughSpaceError, envd's words in its message.
    const sdk = await sdkSandbox(rt)
      .files.write(inDisk('sdk.bin'), new Uint8Array(64 * kib).buffer)
      .catch((err: unknown) => err)
    expect(sdk).toBeInstanceOf(NotEnoughSpaceError)
    expect((sdk as Error).message).toContain('not enough disk space available')
    expect(listing().sort()).toEqual(['filler', 'old.txt'])
  })

  it('saves once space is freed, in place where the disk has room for two copies', async (ctx) => {
    if (!mounted) ctx.skip()
    rmSync(inDisk('filler'))
    const inode = statSync(inDisk('old.txt')).ino
    const res = await octet('disk/old.txt', 'saved once there was room\n')
    expect(res.status).toBe(200)
    expect(readFileSync(inDisk('old.txt'), 'utf8')).toBe('saved once there was room\n')
    expect(statSync(inDisk('old.txt')).ino).toBe(inode)
    expect(listing().sort()).toEqual(['old.txt'])
  })

  it('replaces a file whole by a rename when its new text fits once but not twice', async (ctx) => {
    if (!mounted) ctx.skip()
    fillUp(inDisk('filler'))
    // Room for the new file (the temporary one) and some, far less than two copies need.
    truncateSync(inDisk('filler'), statSync(inDisk('filler')).size - 400 * kib)
    await expect.poll(() => freeBytes(disk)).toBeGreaterThanOrEqual(380 * kib)
    const text = 'x'.repeat(300 * kib)
    const inode = statSync(inDisk('old.txt')).ino
    const mode = statSync(inDisk('old.txt')).mode
    const res = await octet('disk/old.txt', text)
    expect(res.status).toBe(200)
    expect(readFileSync(inDisk('old.txt'), 'utf8')).toBe(text)
    const after = statSync(inDisk('old.txt'))
    expect(after.ino).not.toBe(inode)
    expect(after.mode).toBe(mode)
    expect(listing().sort()).toEqual(['filler', 'old.txt'])
    rmSync(inDisk('filler'))
  })

  it('tells a file system out of inodes from one out of blocks', async (ctx) => {
    if (!mounted) ctx.skip()
    const many = inDisk('many')
    mkdirSync(many)
    try {
      for (let i = 0; ; i++) writeFileSync(join(many, String(i)), '')
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC')
    }
    const res = await octet('disk/one-more.txt', 'x')
    expect(res.status).toBe(507)
    const { message } = (await res.json()) as { message: string }
    expect(message).toMatch(/^not enough inodes available \(\d+ bytes free\)$/)
    expect(noSpaceLeft(message)).toBeGreaterThan(512 * kib)
    rmSync(many, { recursive: true })
    expect(listing().sort()).toEqual(['old.txt'])
  })
})

describe('the 507 for a quota', () => {
  it('says the quota is what is used up (statfs cannot tell how much of it is left)', async () => {
    const err = await writeFailure(Object.assign(new Error('quota'), { code: 'EDQUOT' }), '/', 'x')
    expect([err.status, err.message]).toEqual([507, 'not enough disk space available (over the disk quota)'])
    expect(noSpaceLeft(err.message)).toBe('quota')
  })
})
