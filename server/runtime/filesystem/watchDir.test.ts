import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { create } from '@bufbuild/protobuf'
import { Code, ConnectError, createHandlerContext } from '@connectrpc/connect'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { EventType, Filesystem, WatchDirRequestSchema } from '../../../src/gen/filesystem_pb'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { type Envelope, postStream, postUnary } from '../testing/wire'
import { UserDirectory } from '../users'
import { filesystemService } from './service'
import { WatcherRegistry } from './watcherRegistry'
import { WatchStream } from './watchStream'
import { isNetworkFilesystem } from './watchTarget'

/** inotify watches this process holds (libuv keeps one inotify fd per loop). */
function inotifyWatches(): number {
  let count = 0
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (!readlinkSync(`/proc/self/fd/${fd}`).includes('inotify')) continue
      count += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('inotify wd:')).length
    } catch {
      // The fd closed meanwhile.
    }
  }
  return count
}

const hasFsEvent =
  (name: string, type = 'EVENT_TYPE_CREATE') =>
  (envelopes: Envelope[]) =>
    envelopes.some((e) => e.json?.filesystem?.name === name && e.json.filesystem.type === type)

describe('WatchDir on the wire', () => {
  let rt: TestRuntime
  const at = (...parts: string[]) => join(rt.home, ...parts)
  const watch = (body: unknown, headers: Record<string, string>, until: (e: Envelope[]) => boolean) =>
    postStream(rt.url, '/filesystem.Filesystem/WatchDir', body, { ...rt.auth, ...headers }, until)

  beforeAll(async () => {
    rt = await startTestRuntime()
  })
  afterAll(() => rt.close())

  it('sends {"start":{}} first, then filesystem events with names relative to the directory', async () => {
    mkdirSync(at('w1'))
    let acted = false
    const res = await watch({ path: 'w1' }, {}, (envelopes) => {
      if (envelopes.length >= 1 && !acted) {
        acted = true
        writeFileSync(at('w1', 'new file.txt'), '')
      }
      return hasFsEvent('new file.txt')(envelopes)
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/connect+json')
    expect(res.envelopes[0]).toMatchObject({ flags: 0, text: '{"start":{}}' })
    const event = res.envelopes.find((e) => e.json.filesystem)
    expect(event).toMatchObject({
      flags: 0,
      text: '{"filesystem":{"name":"new file.txt","type":"EVENT_TYPE_CREATE"}}',
    })
  })

  it('attaches EntryInfo with include_entry, reported under the path as asked', async () => {
    mkdirSync(at('w2', 'sub'), { recursive: true })
    let acted = false
    const res = await watch({ path: '~/w2', recursive: true, includeEntry: true }, {}, (envelopes) => {
      if (envelopes.length >= 1 && !acted) {
        acted = true
        writeFileSync(at('w2', 'sub', 'f.txt'), 'abc')
      }
      return hasFsEvent('sub/f.txt')(envelopes)
    })
    const event = res.envelopes.find((e) => e.json.filesystem?.name === 'sub/f.txt')
    expect(event?.json.filesystem.entry).toMatchObject({
      name: 'f.txt',
      type: 'FILE_TYPE_FILE',
      path: at('w2', 'sub', 'f.txt'),
      permissions: '-rw-r--r--',
    })
  })

  it('sends keepalives at Keepalive-Ping-Interval seconds, and clamps 0 to 1 instead of failing', async () => {
    mkdirSync(at('w3'))
    const gotKeepalive = (envelopes: Envelope[]) => envelopes.some((e) => e.text === '{"keepalive":{}}')
    const [one, zero] = await Promise.all([
      watch({ path: 'w3' }, { 'Keepalive-Ping-Interval': '1' }, gotKeepalive),
      watch({ path: 'w3' }, { 'Keepalive-Ping-Interval': '0' }, gotKeepalive),
    ])
    for (const res of [one, zero]) {
      expect(res.envelopes[0]?.text).toBe('{"start":{}}')
      expect(res.envelopes.at(-1)).toMatchObject({ flags: 0, text: '{"keepalive":{}}' })
    }
  })

  it('ends with a 0x02 envelope carrying not_found or invalid_argument, over HTTP 200', async () => {
    writeFileSync(at('plain.txt'), 'x')
    const cases: [unknown, string, string][] = [
      [{ path: 'missing' }, 'not_found', `path not found: ${at('missing')}`],
      [{ path: 'plain.txt' }, 'invalid_argument', `path is not a directory: ${at('plain.txt')}`],
      [{ path: 'bad\u0000path' }, 'invalid_argument', 'path must not contain a NUL byte'],
    ]
    for (const [body, code, message] of cases) {
      const res = await watch(body, {}, () => false)
      expect(res.status).toBe(200)
      expect(res.envelopes).toHaveLength(1)
      expect(res.envelopes[0]?.flags).toBe(2)
      expect(res.envelopes[0]?.json).toEqual({ error: { code, message } })
    }
  })

  it('ends with deadline_exceeded when Connect-Timeout-Ms runs out', async () => {
    mkdirSync(at('w4'))
    const res = await watch({ path: 'w4' }, { 'Connect-Timeout-Ms': '200' }, () => false)
    expect(res.envelopes[0]?.text).toBe('{"start":{}}')
    const last = res.envelopes.at(-1)
    expect(last?.flags).toBe(2)
    expect(last?.json.error.code).toBe('deadline_exceeded')
  })

  it('releases its inotify watches when the client goes away', async () => {
    mkdirSync(at('w5', 'a', 'b'), { recursive: true })
    let during = 0
    const res = await watch({ path: 'w5', recursive: true }, {}, (envelopes) => {
      // The watches exist once start is sent: one per directory.
      if (envelopes.length >= 1) during = inotifyWatches()
      return envelopes.length >= 1
    })
    expect(res.envelopes[0]?.text).toBe('{"start":{}}')
    expect(during).toBeGreaterThanOrEqual(3)
    // postStream aborted the request once it had the start message.
    await vi.waitFor(() => expect(inotifyWatches()).toBeLessThanOrEqual(during - 3), {
      timeout: 5000,
      interval: 20,
    })
  })

  it('works through the generated client, recursive, including new directories', async () => {
    mkdirSync(at('w6'))
    const controller = new AbortController()
    const stream = rt.fs.watchDir({ path: 'w6', recursive: true }, { signal: controller.signal })
    const seen: string[] = []
    for await (const res of stream) {
      if (res.event.case === 'start') {
        mkdirSync(at('w6', 'x', 'y'), { recursive: true })
        writeFileSync(at('w6', 'x', 'y', 'z.txt'), 'z')
      }
      if (res.event.case === 'filesystem' && res.event.value.type === EventType.CREATE)
        seen.push(res.event.value.name)
      if (seen.includes('x/y/z.txt')) break
    }
    controller.abort()
    expect(seen.slice(0, 3)).toEqual(['x', 'x/y', 'x/y/z.txt'])
  })
})

describe('CreateWatcher / GetWatcherEvents / RemoveWatcher', () => {
  let rt: TestRuntime
  const call = (method: string, body: unknown) =>
    postUnary(rt.url, `/filesystem.Filesystem/${method}`, body, rt.auth)

  beforeAll(async () => {
    rt = await startTestRuntime()
  })
  afterAll(() => rt.close())

  it('creates an id of "w" + 20 lowercase alphanumerics and drains queued events', async () => {
    mkdirSync(join(rt.home, 'poll'))
    const created = await call('CreateWatcher', { path: 'poll', includeEntry: true })
    expect(created.status).toBe(200)
    const id = created.json.watcherId
    expect(id).toMatch(/^w[a-z0-9]{20}$/)
    writeFileSync(join(rt.home, 'poll', 'a.txt'), '')
    let events: { name: string; type: string; entry?: { path: string } }[] = []
    await vi.waitFor(
      async () => {
        const res = await call('GetWatcherEvents', { watcherId: id })
        events = [...events, ...(res.json.events ?? [])]
        expect(events.map((e) => e.name)).toContain('a.txt')
      },
      { timeout: 5000, interval: 20 },
    )
    expect(events[0]).toMatchObject({
      name: 'a.txt',
      type: 'EVENT_TYPE_CREATE',
      entry: { path: join(rt.home, 'poll', 'a.txt') },
    })
    // Drained: nothing left, and an empty list is left out of the JSON.
    const again = await call('GetWatcherEvents', { watcherId: id })
    expect(again.json).toEqual({})
    expect((await call('RemoveWatcher', { watcherId: id })).json).toEqual({})
    const gone = await call('GetWatcherEvents', { watcherId: id })
    expect(gone.status).toBe(404)
    expect(gone.json).toEqual({ code: 'not_found', message: `watcher with id ${id} not found` })
  })

  it('answers unknown ids with not_found and validates paths like WatchDir', async () => {
    expect((await call('GetWatcherEvents', { watcherId: 'wnope' })).status).toBe(404)
    expect((await call('RemoveWatcher', { watcherId: 'wnope' })).json.code).toBe('not_found')
    expect((await call('CreateWatcher', { path: 'nowhere' })).json.code).toBe('not_found')
    writeFileSync(join(rt.home, 'file'), '')
    expect((await call('CreateWatcher', { path: 'file' })).json.code).toBe('invalid_argument')
  })

  it('closes every watcher when the runtime is disposed', async () => {
    const other = await startTestRuntime()
    mkdirSync(join(other.home, 'd', 'e'), { recursive: true })
    const before = inotifyWatches()
    await other.fs.createWatcher({ path: 'd', recursive: true })
    expect(inotifyWatches()).toBe(before + 2)
    await other.close()
    expect(inotifyWatches()).toBe(before)
  })
})

describe('filesystemService dispose', () => {
  it('ends open WatchDir streams normally (so the wire end is {}) and releases their watches', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'watch-dispose-')))
    mkdirSync(join(home, 'd', 'e'), { recursive: true })
    const users = new UserDirectory('root', home)
    const service = filesystemService({
      options: { port: 0, host: '', defaultUser: 'root', home, envVars: {} },
      users,
    })
    const ctx = createHandlerContext({
      service: Filesystem,
      method: Filesystem.method.watchDir,
      protocolName: 'connect',
      requestMethod: 'POST',
      url: 'http://runtime/filesystem.Filesystem/WatchDir',
    })
    const before = inotifyWatches()
    const stream = service.impl.watchDir(create(WatchDirRequestSchema, { path: 'd', recursive: true }), ctx)
    const iterator = stream[Symbol.asyncIterator]()
    const first = await iterator.next()
    expect(first.value?.event?.case).toBe('start')
    expect(inotifyWatches()).toBe(before + 2)
    service.dispose()
    expect(await iterator.next()).toEqual({ done: true, value: undefined })
    expect(inotifyWatches()).toBe(before)
    rmSync(home, { recursive: true, force: true })
  })
})

describe('bounded queues', () => {
  const users = new UserDirectory('root')
  let dir: string
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'watch-bounds-')))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('ends a stream whose client stalls with resource_exhausted instead of growing', async () => {
    const root = join(dir, 'stream')
    mkdirSync(root)
    const stream = new WatchStream(
      { path: root, realPath: root, recursive: false, includeEntry: false },
      users,
      5,
    )
    await stream.start()
    for (let i = 0; i < 20; i++) writeFileSync(join(root, `f${i}`), '')
    await vi.waitFor(() => expect(stream.overflowed).toBe(true), { timeout: 5000, interval: 10 })
    const delivered: string[] = []
    let error: unknown
    try {
      for (;;) {
        const next = await stream.responses.next()
        if (next.done) break
        if (next.value.event.case === 'filesystem') delivered.push(next.value.event.value.name)
      }
    } catch (err) {
      error = err
    }
    expect(delivered.length).toBeLessThanOrEqual(5)
    expect(error).toBeInstanceOf(ConnectError)
    expect((error as ConnectError).code).toBe(Code.ResourceExhausted)
    stream.dispose()
  })

  it('drops the oldest polled events and says so once with resource_exhausted', async () => {
    const root = join(dir, 'poll')
    mkdirSync(root)
    const registry = new WatcherRegistry(users, 5)
    const id = await registry.create({ path: root, realPath: root, recursive: false, includeEntry: false })
    for (let i = 0; i < 20; i++) writeFileSync(join(root, `f${i}`), '')
    await vi.waitFor(() => expect(registry.backlog(id)).toBeGreaterThanOrEqual(20), {
      timeout: 5000,
      interval: 10,
    })
    expect(() => registry.drain(id)).toThrow(expect.objectContaining({ code: Code.ResourceExhausted }))
    expect(registry.drain(id)).toEqual([])
    writeFileSync(join(root, 'after'), '')
    await vi.waitFor(() => expect(registry.drain(id).map((e) => e.name)).toContain('after'), {
      timeout: 5000,
    })
    registry.dispose()
    expect(() => registry.drain(id)).toThrow(expect.objectContaining({ code: Code.NotFound }))
  })

  it('recognises network filesystems by their statfs magic', () => {
    expect(isNetworkFilesystem(0x6969)).toBe(true) // NFS
    expect(isNetworkFilesystem(0xff534d42)).toBe(true) // CIFS
    expect(isNetworkFilesystem(0x65735546)).toBe(true) // FUSE
    expect(isNetworkFilesystem(0xef53)).toBe(false) // ext4
    expect(isNetworkFilesystem(0x01021994)).toBe(false) // tmpfs
  })
})
