import { mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { FilesystemEventType, type Sandbox, type FilesystemEvent as SdkFilesystemEvent } from 'e2b'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { EventType } from '../../../src/gen/filesystem_pb'
import { startTestRuntime, type TestRuntime } from '../testing/runtimeFixture'
import { sdkSandbox } from '../testing/sdkSandbox'

// What envd's watcher gives for the commonest changes, checked against a real runtime through the
// official SDK and the polling watcher the Python SDK uses, run after run. envd maps each inotify
// event to one event (IN_CREATE/IN_MOVED_TO → CREATE, IN_MOVED_FROM → RENAME, IN_ATTRIB → CHMOD,
// IN_MODIFY → WRITE, IN_DELETE → REMOVE), so the expected lists are the syscalls envd makes:
//  - files.write of a new file (POST /files): open(O_CREAT|O_TRUNC), fchown, write: CREATE, CHMOD, WRITE;
//  - of an existing one: chown, open(O_TRUNC) (a truncation is IN_MODIFY), write: CHMOD, WRITE, WRITE;
//  - `echo x > f` in a shell: open(O_CREAT|O_TRUNC), write: CREATE, WRITE;
//  - a rename (files.rename, `mv`): RENAME of the old name, CREATE of the new one.
// E2B's Python SDK polls right after a write and expects all three events there.

describe('watch events as envd gives them, through the official SDK', () => {
  let rt: TestRuntime
  let sbx: Sandbox
  const at = (...parts: string[]) => join(rt.home, ...parts)

  beforeAll(async () => {
    rt = await startTestRuntime()
    sbx = sdkSandbox(rt)
  })
  afterAll(() => rt.close())

  /** A polling watcher (CreateWatcher / GetWatcherEvents, as the Python SDK's sync sandbox). */
  async function polled(dir: string, recursive = false) {
    mkdirSync(at(dir), { recursive: true })
    const { watcherId } = await rt.fs.createWatcher({ path: dir, recursive })
    return {
      /** The events queued now, as "TYPE name". */
      take: async () =>
        (await rt.fs.getWatcherEvents({ watcherId })).events.map((e) => `${EventType[e.type]} ${e.name}`),
      remove: () => rt.fs.removeWatcher({ watcherId }),
    }
  }

  it('a new file written: CREATE, CHMOD, WRITE, all there when the write answers, the same in 50 runs', async () => {
    const watcher = await polled('new-files')
    try {
      for (let run = 0; run < 50; run++) {
        await sbx.files.write(`new-files/f${run}.txt`, `This file will be watched (${run}).`)
        expect(await watcher.take()).toEqual([`CREATE f${run}.txt`, `CHMOD f${run}.txt`, `WRITE f${run}.txt`])
      }
    } finally {
      await watcher.remove()
    }
  })

  it('an existing file written again: CHMOD, WRITE, WRITE, the same in 50 runs (in place)', async () => {
    await sbx.files.write('again/f.txt', 'first')
    const inode = statSync(at('again', 'f.txt')).ino
    const watcher = await polled('again')
    try {
      for (let run = 0; run < 50; run++) {
        await sbx.files.write('again/f.txt', `This file has been modified (${run}).`)
        expect(await watcher.take()).toEqual(['CHMOD f.txt', 'WRITE f.txt', 'WRITE f.txt'])
      }
    } finally {
      await watcher.remove()
    }
    expect(await sbx.files.read('again/f.txt')).toBe('This file has been modified (49).')
    expect(statSync(at('again', 'f.txt')).ino).toBe(inode)
  })

  it('an empty new file: CREATE, CHMOD (no write); a large one: one WRITE a MiB', async () => {
    const watcher = await polled('sizes')
    try {
      await sbx.files.write('sizes/empty', '')
      expect(await watcher.take()).toEqual(['CREATE empty', 'CHMOD empty'])
      await sbx.files.write('sizes/large', new Uint8Array(2.5 * 1024 * 1024).fill(7).buffer)
      expect(await watcher.take()).toEqual([
        'CREATE large',
        'CHMOD large',
        'WRITE large',
        'WRITE large',
        'WRITE large',
      ])
    } finally {
      await watcher.remove()
    }
  })

  it('in a recursive watch, a write into a subdirectory: three events, the first its CREATE', async () => {
    mkdirSync(at('tree', 'nested'), { recursive: true })
    const tree = await polled('tree', true)
    try {
      await sbx.files.write('tree/nested/test_watch.txt', 'This file will be watched.')
      expect(await tree.take()).toEqual([
        'CREATE nested/test_watch.txt',
        'CHMOD nested/test_watch.txt',
        'WRITE nested/test_watch.txt',
      ])
    } finally {
      await tree.remove()
    }
  })

  it('a shell’s `echo x > f`: CREATE, WRITE; a rename and a `mv`: RENAME, CREATE; the same in 10 runs', async () => {
    const watcher = await polled('shell')
    try {
      for (let run = 0; run < 10; run++) {
        await sbx.commands.run(`echo x > f${run}`, { cwd: at('shell') })
        await sbx.files.rename(`shell/f${run}`, `shell/g${run}`)
        await sbx.commands.run(`mv g${run} h${run}`, { cwd: at('shell') })
        // An upload answers once everything before it is queued: a barrier for the rest.
        await sbx.files.write(`shell/mark${run}`, '')
        expect(await watcher.take()).toEqual([
          `CREATE f${run}`,
          `WRITE f${run}`,
          `RENAME f${run}`,
          `CREATE g${run}`,
          `RENAME g${run}`,
          `CREATE h${run}`,
          `CREATE mark${run}`,
          `CHMOD mark${run}`,
        ])
      }
    } finally {
      await watcher.remove()
    }
  })

  it('the same on a WatchDir stream (files.watchDir)', async () => {
    await sbx.files.makeDir('streamed')
    const events: SdkFilesystemEvent[] = []
    const handle = await sbx.files.watchDir('streamed', (e) => void events.push(e), { timeoutMs: 0 })
    try {
      await sbx.files.write('streamed/a.txt', 'content')
      await sbx.files.rename('streamed/a.txt', 'streamed/b.txt')
      await sbx.files.remove('streamed/b.txt')
      await vi.waitFor(() => expect(events.length).toBeGreaterThanOrEqual(6), {
        timeout: 10_000,
        interval: 10,
      })
      expect(events.map((e) => [e.type, e.name])).toEqual([
        [FilesystemEventType.CREATE, 'a.txt'],
        [FilesystemEventType.CHMOD, 'a.txt'],
        [FilesystemEventType.WRITE, 'a.txt'],
        [FilesystemEventType.RENAME, 'a.txt'],
        [FilesystemEventType.CREATE, 'b.txt'],
        [FilesystemEventType.REMOVE, 'b.txt'],
      ])
    } finally {
      await handle.stop()
    }
  })
})
