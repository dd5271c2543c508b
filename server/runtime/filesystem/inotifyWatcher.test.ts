import { execFileSync, spawn } from 'node:child_process'
import {
  appendFileSync,
  chmodSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Code } from '@connectrpc/connect'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EventType } from '../../../src/gen/filesystem_pb'
import { sharedInotify } from './inotify'
import { InotifyWatcher } from './inotifyWatcher'
import type { TreeWatcherOptions } from './treeWatcher'
import { uploadTempName } from './uploadTempName'

// Each case says which inotify events the kernel queues for what it does; the expected events
// are envd's mapping of them (IN_CREATE/IN_MOVED_TO → CREATE, IN_MOVED_FROM → RENAME,
// IN_ATTRIB → CHMOD, IN_MODIFY → WRITE, IN_DELETE → REMOVE), one for one, in order.

const inotify = sharedInotify()
if (!inotify)
  throw new Error(
    'the native addon (packages/fs-entries) has no inotify: npm rebuild @sandbox-ide/fs-entries',
  )
const shared = inotify

function newWatcher(
  root: string,
  options: Omit<TreeWatcherOptions, 'onError'> & Partial<TreeWatcherOptions>,
) {
  return new InotifyWatcher(root, { onError: () => {}, ...options }, shared)
}

/** A watcher on a fresh directory, with its events as readable "TYPE name" strings. */
async function watched(recursive: boolean) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'inotify-watch-')))
  const root = join(base, 'root')
  mkdirSync(root)
  const events: string[] = []
  const errors: Error[] = []
  const watcher = newWatcher(root, {
    recursive,
    onChanges: (changes) => {
      for (const c of changes) events.push(`${EventType[c.type]} ${c.name}`)
    },
    onError: (err) => errors.push(err),
  })
  await watcher.start()
  const until = (done: (events: string[]) => boolean) =>
    vi.waitFor(
      () => {
        if (!done(events)) throw new Error(`still waiting; events so far: ${events.join(', ')}`)
      },
      { timeout: 10_000, interval: 5 },
    )
  /** Everything reported up to a sentinel file made now (events come in order), then forgotten. */
  const settle = async () => {
    const name = `sentinel-${Math.random().toString(36).slice(2)}`
    writeFileSync(join(root, name), '')
    await until((e) => e.includes(`CREATE ${name}`))
    const seen = events.filter((e) => !e.includes('sentinel-'))
    events.length = 0
    return seen
  }
  cleanups.push(() => {
    watcher.close()
    rmSync(base, { recursive: true, force: true })
  })
  return { root, base, at: (...p: string[]) => join(root, ...p), events, errors, watcher, until, settle }
}

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

describe('InotifyWatcher: every inotify event mapped as envd maps it', () => {
  it('a new file with data: CREATE (open O_CREAT), WRITE (write); an append: WRITE', async () => {
    const w = await watched(false)
    writeFileSync(w.at('a.txt'), 'hello')
    expect(await w.settle()).toEqual(['CREATE a.txt', 'WRITE a.txt'])
    appendFileSync(w.at('a.txt'), ' world')
    expect(await w.settle()).toEqual(['WRITE a.txt'])
  })

  it('`echo x > f` in a shell: CREATE, WRITE; again over it: WRITE (the truncation and the write, merged by the kernel while unread)', async () => {
    const w = await watched(false)
    execFileSync('sh', ['-c', 'echo x > f'], { cwd: w.root })
    expect(await w.settle()).toEqual(['CREATE f', 'WRITE f'])
    // The shell runs while this process waits, so both IN_MODIFY are queued unread: one event.
    execFileSync('sh', ['-c', 'echo y > f'], { cwd: w.root })
    expect(await w.settle()).toEqual(['WRITE f'])
  })

  it('chmod and touch are CHMOD (IN_ATTRIB), not WRITE', async () => {
    const w = await watched(false)
    writeFileSync(w.at('f'), 'x')
    await w.settle()
    chmodSync(w.at('f'), 0o600)
    expect(await w.settle()).toEqual(['CHMOD f'])
    utimesSync(w.at('f'), new Date(), new Date())
    expect(await w.settle()).toEqual(['CHMOD f'])
  })

  it('a delete is REMOVE', async () => {
    const w = await watched(false)
    writeFileSync(w.at('gone'), 'x')
    await w.settle()
    rmSync(w.at('gone'))
    expect(await w.settle()).toEqual(['REMOVE gone'])
  })

  it('a rename is RENAME (old name) then CREATE (new name), also over an existing file and from a shell', async () => {
    const w = await watched(false)
    writeFileSync(w.at('old'), 'x')
    writeFileSync(w.at('dst'), 'y')
    await w.settle()
    renameSync(w.at('old'), w.at('new'))
    expect(await w.settle()).toEqual(['RENAME old', 'CREATE new'])
    renameSync(w.at('new'), w.at('dst'))
    expect(await w.settle()).toEqual(['RENAME new', 'CREATE dst'])
    execFileSync('mv', ['dst', 'moved'], { cwd: w.root })
    expect(await w.settle()).toEqual(['RENAME dst', 'CREATE moved'])
  })

  it('a move out of the tree is RENAME, a move in CREATE, as envd says', async () => {
    const w = await watched(false)
    writeFileSync(w.at('leaving'), 'x')
    writeFileSync(join(w.base, 'arriving'), 'y')
    await w.settle()
    renameSync(w.at('leaving'), join(w.base, 'left'))
    renameSync(join(w.base, 'arriving'), w.at('arrived'))
    expect(await w.settle()).toEqual(['RENAME leaving', 'CREATE arrived'])
  })

  it('a hard link is CREATE of the new name (the link count changes only the inode’s own watchers see)', async () => {
    const w = await watched(false)
    writeFileSync(w.at('orig'), 'x')
    await w.settle()
    linkSync(w.at('orig'), w.at('alias'))
    expect(await w.settle()).toEqual(['CREATE alias'])
  })

  it('a file made and removed at once is still CREATE then REMOVE', async () => {
    const w = await watched(false)
    writeFileSync(w.at('brief'), '')
    rmSync(w.at('brief'))
    expect(await w.settle()).toEqual(['CREATE brief', 'REMOVE brief'])
  })

  it('the same writes give the same events, run after run', async () => {
    const w = await watched(false)
    for (let run = 0; run < 50; run++) {
      writeFileSync(w.at(`f${run}`), 'data')
      chmodSync(w.at(`f${run}`), 0o600)
      renameSync(w.at(`f${run}`), w.at(`g${run}`))
      rmSync(w.at(`g${run}`))
      expect(await w.settle()).toEqual([
        `CREATE f${run}`,
        `WRITE f${run}`,
        `CHMOD f${run}`,
        `RENAME f${run}`,
        `CREATE g${run}`,
        `REMOVE g${run}`,
      ])
    }
  })

  it('without recursive, a new subdirectory is CREATE and nothing inside it is seen', async () => {
    const w = await watched(false)
    mkdirSync(w.at('sub'))
    await w.until((e) => e.includes('CREATE sub'))
    writeFileSync(w.at('sub', 'inner'), 'x')
    expect(await w.settle()).toEqual(['CREATE sub'])
    expect(w.watcher.watchCount).toBe(1)
  })

  it('with recursive, reports files made inside new directories before their watch existed, once', async () => {
    const w = await watched(true)
    mkdirSync(w.at('a', 'b', 'c'), { recursive: true })
    writeFileSync(w.at('a', 'b', 'c', 'f.txt'), 'data')
    expect(await w.settle()).toEqual([
      'CREATE a',
      'CREATE a/b',
      'CREATE a/b/c',
      'CREATE a/b/c/f.txt',
      'WRITE a/b/c/f.txt',
    ])
    // And the new directories are watched from now on.
    writeFileSync(w.at('a', 'b', 'later.txt'), '')
    expect(await w.settle()).toEqual(['CREATE a/b/later.txt'])
    expect(w.watcher.watchCount).toBe(4)
  })

  it('with recursive, reports a made-and-filled directory once even while its files keep coming', async () => {
    const w = await watched(true)
    const script = 'mkdir d; for i in 1 2 3 4 5 6 7 8 9 10; do : > d/$i; done'
    // Spawned, so the files are made while the watcher reads the new folder.
    const child = spawn('sh', ['-c', script], { cwd: w.root })
    await new Promise((resolve) => child.on('exit', resolve))
    const events = await w.settle()
    const creates = events.filter((e) => e.startsWith('CREATE '))
    expect(creates.sort()).toEqual(
      ['CREATE d', ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => `CREATE d/${i}`)].sort(),
    )
  })

  it('a subdirectory’s chmod is CHMOD twice in a recursive watch, from its parent and itself, as in envd', async () => {
    const w = await watched(true)
    mkdirSync(w.at('sub'))
    await w.settle()
    chmodSync(w.at('sub'), 0o700)
    expect(await w.settle()).toEqual(['CHMOD sub', 'CHMOD sub'])
  })

  it('follows a directory moved within the tree without re-reporting its contents', async () => {
    const w = await watched(true)
    mkdirSync(w.at('before', 'inner'), { recursive: true })
    writeFileSync(w.at('before', 'inner', 'f'), 'x')
    await w.settle()
    renameSync(w.at('before'), w.at('after'))
    expect(await w.settle()).toEqual(['RENAME before', 'CREATE after'])
    writeFileSync(w.at('after', 'inner', 'g'), 'y')
    expect(await w.settle()).toEqual(['CREATE after/inner/g', 'WRITE after/inner/g'])
    expect(w.watcher.watchCount).toBe(3)
  })

  it('stops watching a directory moved out of the tree', async () => {
    const w = await watched(true)
    mkdirSync(w.at('out', 'deep'), { recursive: true })
    await w.settle()
    const watches = w.watcher.watchCount
    renameSync(w.at('out'), join(w.base, 'away'))
    expect(await w.settle()).toEqual(['RENAME out'])
    expect(w.watcher.watchCount).toBe(watches - 2)
    writeFileSync(join(w.base, 'away', 'deep', 'f'), 'x')
    expect(await w.settle()).toEqual([])
  })

  it('reports a removed subtree inside out and stops watching it', async () => {
    const w = await watched(true)
    mkdirSync(w.at('doomed', 'deeper'), { recursive: true })
    writeFileSync(w.at('doomed', 'deeper', 'f'), 'x')
    await w.settle()
    expect(w.watcher.watchCount).toBe(3)
    rmSync(w.at('doomed'), { recursive: true })
    expect(await w.settle()).toEqual(['REMOVE doomed/deeper/f', 'REMOVE doomed/deeper', 'REMOVE doomed'])
    expect(w.watcher.watchCount).toBe(1)
  })

  it('reports a burst of 1,000 new files as exactly 1,000 CREATE events', async () => {
    const w = await watched(false)
    for (let i = 0; i < 1000; i++) writeFileSync(w.at(`burst-${i}`), String(i))
    const events = await w.settle()
    const creates = events.filter((e) => e.startsWith('CREATE '))
    expect(creates).toHaveLength(1000)
    expect(new Set(creates).size).toBe(1000)
  })

  it('never reports upload temporaries: one landing by rename is CREATE when new, WRITE when it replaced', async () => {
    const w = await watched(false)
    writeFileSync(w.at('existing.txt'), 'old')
    await w.settle()
    const tempNew = w.at(uploadTempName())
    writeFileSync(tempNew, 'fresh')
    renameSync(tempNew, w.at('fresh.txt'))
    const tempOld = w.at(uploadTempName(true))
    writeFileSync(tempOld, 'replaced')
    renameSync(tempOld, w.at('existing.txt'))
    expect(await w.settle()).toEqual(['CREATE fresh.txt', 'WRITE existing.txt'])
  })

  it('reports the watched directory itself as "." (CHMOD, then REMOVE when it goes, then nothing)', async () => {
    const w = await watched(true)
    chmodSync(w.root, 0o700)
    await w.until((e) => e.includes('CHMOD .'))
    mkdirSync(w.at('sub'))
    await w.until((e) => e.includes('CREATE sub'))
    rmSync(w.root, { recursive: true })
    await w.until((e) => e.includes('REMOVE .'))
    expect(w.events.slice(-2)).toEqual(['REMOVE sub', 'REMOVE .'])
    expect(w.watcher.watchCount).toBe(0)
    expect(w.errors).toEqual([])
  })

  it('reports the watched directory moved away as RENAME "."', async () => {
    const w = await watched(false)
    renameSync(w.root, join(w.base, 'elsewhere'))
    await w.until((e) => e.includes('RENAME .'))
    expect(w.watcher.watchCount).toBe(0)
  })

  it('shares the kernel’s watch of a directory between watchers, and releases it with the last', async () => {
    const w = await watched(false)
    const before = shared.watchCount
    const seen: string[] = []
    const second = newWatcher(w.root, {
      recursive: false,
      onChanges: (changes) => {
        for (const c of changes) seen.push(`${EventType[c.type]} ${c.name}`)
      },
    })
    await second.start()
    expect(shared.watchCount).toBe(before)
    writeFileSync(w.at('both'), '')
    await vi.waitFor(() => expect(seen).toEqual(['CREATE both']))
    await w.until((e) => e.includes('CREATE both'))
    second.close()
    expect(shared.watchCount).toBe(before)
    w.watcher.close()
    expect(shared.watchCount).toBe(before - 1)
  })

  it('releases every watch on close', async () => {
    const w = await watched(true)
    mkdirSync(w.at('a', 'b'), { recursive: true })
    await w.until((e) => e.includes('CREATE a/b'))
    expect(w.watcher.watchCount).toBe(3)
    w.watcher.close()
    expect(w.watcher.watchCount).toBe(0)
  })

  it('fails to start on a directory that is not there', async () => {
    const watcher = newWatcher(join(tmpdir(), 'no-such-dir-for-watch'), {
      recursive: false,
      onChanges: () => {},
    })
    await expect(watcher.start()).rejects.toThrow()
    expect(watcher.watchCount).toBe(0)
  })

  it('refuses a tree with more directories than its limit, holding no watch, and stops when one grows past it', async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'inotify-watch-limit-')))
    cleanups.push(() => rmSync(base, { recursive: true, force: true }))
    for (const name of ['a', 'b', 'c']) mkdirSync(join(base, name))
    const tooSmall = newWatcher(base, { recursive: true, maxDirs: 3, onChanges: () => {} })
    await expect(tooSmall.start()).rejects.toMatchObject({ code: Code.ResourceExhausted })
    expect(tooSmall.watchCount).toBe(0)

    const errors: Error[] = []
    const fits = newWatcher(base, {
      recursive: true,
      maxDirs: 4,
      onChanges: () => {},
      onError: (e) => errors.push(e),
    })
    await fits.start()
    mkdirSync(join(base, 'd'))
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000 })
    expect(errors[0]?.message).toContain('more than 4 directories')
    expect(fits.watchCount).toBe(0)
  })
})
