import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, lstatSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setAttribute } from 'fs-xattr'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { postUnary } from '../testing/wire'
import { UserDirectory } from '../users'

const accounts = new UserDirectory('root')
const basic = (name: string) => ({ Authorization: `Basic ${Buffer.from(`${name}:`).toString('base64')}` })

describe('filesystem.Filesystem on the wire (Connect+JSON bytes)', () => {
  let rt: TestRuntime
  const call = (method: string, body: unknown, headers: Record<string, string> = {}) =>
    postUnary(rt.url, `/filesystem.Filesystem/${method}`, body, { ...rt.auth, ...headers })
  const at = (...parts: string[]) => join(rt.home, ...parts)

  beforeAll(async () => {
    rt = await startTestRuntime()
  })
  afterAll(() => rt.close())

  describe('Stat and EntryInfo', () => {
    it('writes camelCase fields, size as a string, enum names and an RFC 3339 time', async () => {
      writeFileSync(at('a.txt'), 'hello')
      chmodSync(at('a.txt'), 0o640)
      // Nanoseconds survive: GNU touch sets them exactly.
      execFileSync('touch', ['-d', '2026-01-02 03:04:05.123456789Z', at('a.txt')])
      const st = statSync(at('a.txt'))
      const res = await call('Stat', { path: 'a.txt' })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json')
      expect(res.json).toEqual({
        entry: {
          name: 'a.txt',
          type: 'FILE_TYPE_FILE',
          path: at('a.txt'),
          size: '5',
          mode: 0o640,
          permissions: '-rw-r-----',
          owner: accounts.userName(st.uid),
          group: accounts.groupName(st.gid),
          modifiedTime: '2026-01-02T03:04:05.123456789Z',
        },
      })
    })

    it('leaves zero values out: an empty file has no size, a mode-000 file no mode', async () => {
      writeFileSync(at('empty'), '')
      chmodSync(at('empty'), 0)
      const { json } = await call('Stat', { path: at('empty') })
      expect(json.entry).not.toHaveProperty('size')
      expect(json.entry).not.toHaveProperty('mode')
      expect(json.entry).not.toHaveProperty('symlinkTarget')
      expect(json.entry).not.toHaveProperty('metadata')
      expect(json.entry.permissions).toBe('----------')
    })

    it('reports a directory with its type and the Go mode string', async () => {
      mkdirSync(at('dir'))
      chmodSync(at('dir'), 0o1777)
      const { json } = await call('Stat', { path: '~/dir' })
      expect(json.entry).toMatchObject({
        name: 'dir',
        type: 'FILE_TYPE_DIRECTORY',
        mode: 0o777,
        permissions: 'dtrwxrwxrwx',
      })
      expect(Number(json.entry.size)).toBeGreaterThan(0)
    })

    it("reports a symlink with its target's type and mode, and the fully resolved target", async () => {
      mkdirSync(at('real'))
      writeFileSync(at('real', 'f.sh'), '#!/bin/sh\n')
      chmodSync(at('real', 'f.sh'), 0o755)
      symlinkSync('real', at('hop'))
      symlinkSync('hop/f.sh', at('link'))
      const { json } = await call('Stat', { path: 'link' })
      expect(json.entry).toMatchObject({
        name: 'link',
        type: 'FILE_TYPE_FILE',
        path: at('link'),
        size: String('hop/f.sh'.length),
        mode: 0o755,
        permissions: 'Lrwxrwxrwx',
        symlinkTarget: at('real', 'f.sh'),
      })
      const dirLink = await call('Stat', { path: 'hop' })
      expect(dirLink.json.entry).toMatchObject({ type: 'FILE_TYPE_DIRECTORY', symlinkTarget: at('real') })
    })

    it('reports a broken symlink as UNSPECIFIED with mode 0 and its own path as target', async () => {
      symlinkSync('nowhere', at('broken'))
      const { json } = await call('Stat', { path: 'broken' })
      expect(json.entry).not.toHaveProperty('type')
      expect(json.entry).not.toHaveProperty('mode')
      expect(json.entry).toMatchObject({ permissions: 'Lrwxrwxrwx', symlinkTarget: at('broken') })
    })

    it('reports devices and pipes as UNSPECIFIED with Go letters', async () => {
      const dev = await call('Stat', { path: '/dev/null' })
      expect(dev.json.entry).toMatchObject({ name: 'null', permissions: 'Dcrw-rw-rw-', mode: 0o666 })
      expect(dev.json.entry).not.toHaveProperty('type')
      execFileSync('mkfifo', ['-m', '600', at('fifo')])
      const fifo = await call('Stat', { path: 'fifo' })
      expect(fifo.json.entry).toMatchObject({ permissions: 'prw-------', mode: 0o600 })
    })

    it('returns user.e2b.* xattrs as metadata, prefix stripped, skipping other and non-UTF-8 ones', async () => {
      writeFileSync(at('meta.txt'), 'x')
      await setAttribute(at('meta.txt'), 'user.e2b.owner', 'alice')
      await setAttribute(at('meta.txt'), 'user.e2b.note', 'h\u00e9llo')
      await setAttribute(at('meta.txt'), 'user.e2b.bad', Buffer.from([0xff, 0xfe]))
      await setAttribute(at('meta.txt'), 'user.other', 'ignored')
      const { json } = await call('Stat', { path: 'meta.txt' })
      expect(json.entry.metadata).toEqual({ owner: 'alice', note: 'h\u00e9llo' })
    })

    it('answers a missing path with not_found and a file used as a directory with internal', async () => {
      const missing = await call('Stat', { path: 'nope.txt' })
      expect(missing.status).toBe(404)
      expect(missing.headers.get('content-type')).toBe('application/json')
      expect(missing.json).toEqual({
        code: 'not_found',
        message: `file not found: lstat ${at('nope.txt')}: no such file or directory`,
      })
      writeFileSync(at('plain'), 'x')
      const notDir = await call('Stat', { path: 'plain/child' })
      expect(notDir.status).toBe(500)
      expect(notDir.json.code).toBe('internal')
    })
  })

  describe('request validation', () => {
    it('rejects unknown fields with invalid_argument', async () => {
      const res = await call('Stat', { path: 'a.txt', extra: true })
      expect(res.status).toBe(400)
      expect(res.json.code).toBe('invalid_argument')
    })

    it('rejects malformed JSON and a wrongly typed field with invalid_argument', async () => {
      const malformed = await call('Stat', '{"path":')
      expect(malformed.status).toBe(400)
      expect(malformed.json.code).toBe('invalid_argument')
      const wrongType = await call('ListDir', { path: 'x', depth: 'deep' })
      expect(wrongType.status).toBe(400)
      expect(wrongType.json.code).toBe('invalid_argument')
    })

    it('answers a wrong content type with 415', async () => {
      const res = await fetch(`${rt.url}/filesystem.Filesystem/Stat`, {
        method: 'POST',
        headers: { ...rt.auth, 'Content-Type': 'text/plain' },
        body: '{"path":"a.txt"}',
      })
      expect(res.status).toBe(415)
    })

    it('accepts snake_case names and numeric enums in requests, as protojson does', async () => {
      const res = await call('CreateWatcher', { path: '', include_entry: true })
      expect(res.status).toBe(200)
      expect(res.json.watcherId).toMatch(/^w[a-z0-9]{20}$/)
      await call('RemoveWatcher', { watcherId: res.json.watcherId })
    })

    it('refuses a NUL byte in a path with a clear invalid_argument', async () => {
      for (const method of ['Stat', 'MakeDir', 'ListDir', 'Remove']) {
        const res = await call(method, { path: 'a\u0000b' })
        expect(res.status).toBe(400)
        expect(res.json).toEqual({ code: 'invalid_argument', message: 'path must not contain a NUL byte' })
      }
      const move = await call('Move', { source: 'a.txt', destination: 'x\u0000' })
      expect(move.json.code).toBe('invalid_argument')
    })

    it("refuses another user's home with invalid_argument", async () => {
      const res = await call('Stat', { path: '~root/x' })
      expect(res.status).toBe(400)
      expect(res.json.message).toContain('cannot expand user-specific home dir')
    })

    it('rejects an unknown Basic user with a Connect unauthenticated body', async () => {
      const res = await call('Stat', { path: '' }, basic('no-such-user'))
      expect(res.status).toBe(401)
      expect(res.json).toEqual({ code: 'unauthenticated', message: "invalid username: 'no-such-user'" })
    })

    it('resolves "..", "~" and relative paths against the home directory', async () => {
      mkdirSync(at('p', 'q'), { recursive: true })
      const res = await call('Stat', { path: 'p/q/../q/./' })
      expect(res.json.entry.path).toBe(at('p', 'q'))
      const home = await call('Stat', { path: '~' })
      expect(home.json.entry.path).toBe(rt.home)
      const empty = await call('Stat', { path: '' })
      expect(empty.json.entry.path).toBe(rt.home)
      const up = await call('Stat', { path: `${rt.home}/../${rt.home.split('/').pop()}` })
      expect(up.json.entry.path).toBe(rt.home)
    })
  })

  describe('awkward names survive the round trip', () => {
    const names = [
      'with space',
      'new\nline',
      'ünïcødé-名前-🙂',
      '<img src=x onerror=alert(1)>',
      '-rf',
      '--help',
      'quote\'"s',
    ]
    it.each(names)('%j', async (name) => {
      const made = await call('MakeDir', { path: join('names', name) })
      expect(made.status).toBe(200)
      expect(made.json.entry).toMatchObject({ name, path: at('names', name), type: 'FILE_TYPE_DIRECTORY' })
      expect(existsSync(at('names', name))).toBe(true)
      const listed = await call('ListDir', { path: 'names' })
      expect(listed.json.entries.map((e: { name: string }) => e.name)).toContain(name)
      const moved = await call('Move', {
        source: join('names', name),
        destination: join('names', `${name}.moved`),
      })
      expect(moved.json.entry.name).toBe(`${name}.moved`)
      expect((await call('Remove', { path: join('names', `${name}.moved`) })).status).toBe(200)
      expect(existsSync(at('names', `${name}.moved`))).toBe(false)
    })
  })

  it('keeps markup in paths as plain text, without HTML escaping', async () => {
    const res = await call('MakeDir', { path: 'xss/<script>alert(1)</script>' })
    expect(res.status).toBe(200)
    expect(res.json.entry).toMatchObject({ name: 'script>', path: at('xss', '<script>alert(1)<', 'script>') })
    expect(res.text).toContain(`"path":"${at('xss', '<script>alert(1)<', 'script>')}"`)
  })

  describe('MakeDir', () => {
    it('creates missing parents with mode 0755 and returns the new entry', async () => {
      const res = await call('MakeDir', { path: 'mk/a/b' })
      expect(res.status).toBe(200)
      expect(res.json.entry).toMatchObject({
        name: 'b',
        type: 'FILE_TYPE_DIRECTORY',
        path: at('mk', 'a', 'b'),
        mode: 0o755,
      })
      expect(statSync(at('mk', 'a')).mode & 0o777).toBe(0o755)
    })

    it('answers an existing directory with already_exists (409)', async () => {
      mkdirSync(at('exists'))
      const res = await call('MakeDir', { path: 'exists' })
      expect(res.status).toBe(409)
      expect(res.json).toEqual({
        code: 'already_exists',
        message: `directory already exists: ${at('exists')}`,
      })
    })

    it('answers an existing file with invalid_argument and a file parent with internal', async () => {
      writeFileSync(at('isfile'), 'x')
      const file = await call('MakeDir', { path: 'isfile' })
      expect(file.status).toBe(400)
      expect(file.json).toEqual({
        code: 'invalid_argument',
        message: `path already exists but it is not a directory: ${at('isfile')}`,
      })
      const parent = await call('MakeDir', { path: 'isfile/sub/dir' })
      expect(parent.status).toBe(500)
      expect(parent.json).toEqual({ code: 'internal', message: `path is a file: ${at('isfile')}` })
    })

    it('makes the calling user own what it creates (the runtime runs as root)', async () => {
      if (process.getuid?.() !== 0) return
      const dir = at('owned')
      mkdirSync(dir)
      chmodSync(dir, 0o777)
      const res = await call('MakeDir', { path: join(dir, 'x', 'y') }, basic('nobody'))
      expect(res.json.entry).toMatchObject({ owner: 'nobody', group: 'nogroup' })
      expect(lstatSync(join(dir, 'x')).uid).toBe(65534)
    })
  })

  describe('Move', () => {
    it('renames, creating missing destination parents, and returns the destination entry', async () => {
      writeFileSync(at('mv-src.txt'), 'data')
      const res = await call('Move', { source: 'mv-src.txt', destination: 'mv/deep/dst.txt' })
      expect(res.status).toBe(200)
      expect(res.json.entry).toMatchObject({ name: 'dst.txt', path: at('mv', 'deep', 'dst.txt'), size: '4' })
      expect(existsSync(at('mv-src.txt'))).toBe(false)
    })

    it('replaces an existing destination file, as rename(2) does', async () => {
      writeFileSync(at('mv-a'), 'new')
      writeFileSync(at('mv-b'), 'old content')
      const res = await call('Move', { source: 'mv-a', destination: 'mv-b' })
      expect(res.json.entry.size).toBe('3')
    })

    it('answers a missing source with not_found and a non-empty target directory with internal', async () => {
      const missing = await call('Move', { source: 'ghost', destination: 'elsewhere' })
      expect(missing.status).toBe(404)
      expect(missing.json).toEqual({ code: 'not_found', message: `source file not found: ${at('ghost')}` })
      mkdirSync(at('mv-d1'))
      mkdirSync(at('mv-d2'))
      writeFileSync(at('mv-d2', 'keep'), 'x')
      const full = await call('Move', { source: 'mv-d1', destination: 'mv-d2' })
      expect(full.status).toBe(500)
      expect(full.json.code).toBe('internal')
    })
  })

  describe('Remove', () => {
    it('removes recursively and answers {}', async () => {
      mkdirSync(at('rm', 'a', 'b'), { recursive: true })
      writeFileSync(at('rm', 'a', 'b', 'f'), 'x')
      const res = await call('Remove', { path: 'rm' })
      expect(res.status).toBe(200)
      expect(res.text).toBe('{}')
      expect(existsSync(at('rm'))).toBe(false)
    })

    it('succeeds for a missing path', async () => {
      const res = await call('Remove', { path: 'never-existed' })
      expect(res.status).toBe(200)
      expect(res.json).toEqual({})
    })

    it('refuses an empty path instead of deleting the home directory', async () => {
      writeFileSync(at('precious'), 'x')
      const res = await call('Remove', { path: '' })
      expect(res.status).toBe(400)
      expect(res.json.code).toBe('invalid_argument')
      expect(existsSync(at('precious'))).toBe(true)
      const omitted = await call('Remove', {})
      expect(omitted.status).toBe(400)
      expect(existsSync(rt.home)).toBe(true)
    })
  })

  describe('ListDir errors', () => {
    it('answers missing with not_found, a file with invalid_argument and a loop with failed_precondition', async () => {
      const missing = await call('ListDir', { path: 'no-dir' })
      expect(missing.status).toBe(404)
      expect(missing.json).toEqual({ code: 'not_found', message: `path not found: ${at('no-dir')}` })
      writeFileSync(at('ld-file'), 'x')
      const file = await call('ListDir', { path: 'ld-file' })
      expect(file.status).toBe(400)
      expect(file.json).toEqual({
        code: 'invalid_argument',
        message: `path is not a directory: ${at('ld-file')}`,
      })
      symlinkSync('loop-b', at('loop-a'))
      symlinkSync('loop-a', at('loop-b'))
      const loop = await call('ListDir', { path: 'loop-a' })
      expect(loop.status).toBe(400)
      expect(loop.json.code).toBe('failed_precondition')
    })
  })
})
