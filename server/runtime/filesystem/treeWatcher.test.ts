import {
  appendFileSync,
  chmodSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Code } from '@connectrpc/connect'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EventType } from '../../../src/gen/filesystem_pb'
import { TreeWatcher } from './treeWatcher'
import { uploadTempName } from './uploadTempName'

/** A watcher on a fresh directory, with its events as readable "TYPE name" strings. */
async function watched(recursive: boolean) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tree-watch-')))
  const root = join(base, 'root')
  mkdirSync(root)
  const events: string[] = []
  const errors: Error[] = []
  const watcher = new TreeWatcher(root, {
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
  /** Everything reported up to a sentinel file made now (events come in order). */
  const settle = async () => {
    const name = `sentinel-${Math.random().toString(36).slice(2)}`
    writeFileSync(join(root, name), '')
    await until((e) => e.includes(`CREATE ${name}`))
    return events.filter((e) => !e.includes('sentinel-'))
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

describe('TreeWatcher: classifying fs.watch notifications as envd events', () => {
  it('reports a new file with data as CREATE then WRITE, and later writes as WRITE', async () => {
    const w = await watched(false)
    writeFileSync(w.at('a.txt'), 'hello')
    await w.until((e) => e.includes('WRITE a.txt'))
    expect(w.events.slice(0, 2)).toEqual(['CREATE a.txt', 'WRITE a.txt'])
    w.events.length = 0
    appendFileSync(w.at('a.txt'), ' world')
    expect(await w.settle()).toEqual(['WRITE a.txt'])
  })

  it('reports chmod as CHMOD, not WRITE', async () => {
    const w = await watched(false)
    writeFileSync(w.at('f'), 'x')
    await w.settle()
    w.events.length = 0
    chmodSync(w.at('f'), 0o600)
    expect(await w.settle()).toEqual(['CHMOD f'])
  })

  it('reports a delete as REMOVE', async () => {
    const w = await watched(false)
    writeFileSync(w.at('gone'), 'x')
    await w.settle()
    w.events.length = 0
    rmSync(w.at('gone'))
    expect(await w.settle()).toEqual(['REMOVE gone'])
  })

  it('reports a rename as RENAME (old name) then CREATE (new name)', async () => {
    const w = await watched(false)
    writeFileSync(w.at('old'), 'x')
    await w.settle()
    w.events.length = 0
    renameSync(w.at('old'), w.at('new'))
    expect(await w.settle()).toEqual(['RENAME old', 'CREATE new'])
  })

  it('reports a rename over an existing file as RENAME + CREATE, with no REMOVE', async () => {
    const w = await watched(false)
    writeFileSync(w.at('src'), 'new')
    writeFileSync(w.at('dst'), 'old')
    await w.settle()
    w.events.length = 0
    renameSync(w.at('src'), w.at('dst'))
    expect(await w.settle()).toEqual(['RENAME src', 'CREATE dst'])
  })

  it('reports a move out of the tree as REMOVE and a move in as CREATE', async () => {
    const w = await watched(false)
    writeFileSync(w.at('leaving'), 'x')
    writeFileSync(join(w.base, 'arriving'), 'y')
    await w.settle()
    w.events.length = 0
    renameSync(w.at('leaving'), join(w.base, 'left'))
    renameSync(join(w.base, 'arriving'), w.at('arrived'))
    expect(await w.settle()).toEqual(['REMOVE leaving', 'CREATE arrived'])
  })

  it('reports a hard link as CREATE of the new name (inotify tells the directory nothing else)', async () => {
    const w = await watched(false)
    writeFileSync(w.at('orig'), 'x')
    await w.settle()
    w.events.length = 0
    linkSync(w.at('orig'), w.at('alias'))
    expect(await w.settle()).toEqual(['CREATE alias'])
  })

  it('tells a delete followed by a new file reusing the inode number from a rename', async () => {
    const w = await watched(false)
    writeFileSync(w.at('first'), 'x')
    await w.settle()
    w.events.length = 0
    rmSync(w.at('first'))
    writeFileSync(w.at('second'), '')
    expect(await w.settle()).toEqual(['REMOVE first', 'CREATE second'])
  })

  it('without recursive, reports a new subdirectory but nothing inside it', async () => {
    const w = await watched(false)
    mkdirSync(w.at('sub'))
    await w.until((e) => e.includes('CREATE sub'))
    writeFileSync(w.at('sub', 'inner'), 'x')
    expect(await w.settle()).toEqual(['CREATE sub'])
    expect(w.watcher.watchCount).toBe(1)
  })

  it('with recursive, reports files made inside new directories before their watch existed', async () => {
    const w = await watched(true)
    mkdirSync(w.at('a', 'b', 'c'), { recursive: true })
    writeFileSync(w.at('a', 'b', 'c', 'f.txt'), 'data')
    await w.until((e) => e.includes('CREATE a/b/c/f.txt'))
    const creates = w.events.filter((e) => e.startsWith('CREATE'))
    expect(creates).toEqual(['CREATE a', 'CREATE a/b', 'CREATE a/b/c', 'CREATE a/b/c/f.txt'])
    // And the new directories are watched from now on.
    w.events.length = 0
    writeFileSync(w.at('a', 'b', 'later.txt'), '')
    await w.until((e) => e.includes('CREATE a/b/later.txt'))
    expect(w.watcher.watchCount).toBe(4)
  })

  it('with recursive, reports changes in existing subdirectories with their relative names', async () => {
    mkdirSync(join(tmpdir(), 'unused'), { recursive: true })
    const w = await watched(true)
    mkdirSync(w.at('src'))
    await w.until((e) => e.includes('CREATE src'))
    writeFileSync(w.at('src', 'x.ts'), 'x')
    await w.until((e) => e.includes('CREATE src/x.ts'))
    rmSync(w.at('src', 'x.ts'))
    await w.until((e) => e.includes('REMOVE src/x.ts'))
  })

  it('follows a directory moved within the tree without re-reporting its contents', async () => {
    const w = await watched(true)
    mkdirSync(w.at('before', 'inner'), { recursive: true })
    writeFileSync(w.at('before', 'inner', 'f'), 'x')
    await w.until((e) => e.includes('CREATE before/inner/f'))
    w.events.length = 0
    renameSync(w.at('before'), w.at('after'))
    await w.until((e) => e.includes('CREATE after'))
    writeFileSync(w.at('after', 'inner', 'g'), 'y')
    await w.until((e) => e.includes('CREATE after/inner/g'))
    const events = await w.settle()
    expect(events.slice(0, 2)).toEqual(['RENAME before', 'CREATE after'])
    expect(events).not.toContain('CREATE after/inner/f')
    expect(events).not.toContain('CREATE after/inner')
    expect(w.watcher.watchCount).toBe(3)
  })

  it('reports a removed subtree and stops watching it', async () => {
    const w = await watched(true)
    mkdirSync(w.at('doomed', 'deeper'), { recursive: true })
    writeFileSync(w.at('doomed', 'deeper', 'f'), 'x')
    await w.until((e) => e.includes('CREATE doomed/deeper/f'))
    expect(w.watcher.watchCount).toBe(3)
    w.events.length = 0
    rmSync(w.at('doomed'), { recursive: true })
    const events = await w.settle()
    expect(events).toContain('REMOVE doomed')
    expect(events.filter((e) => e.startsWith('CREATE'))).toEqual([])
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

  it('never reports upload temporaries: a new upload is CREATE, an overwrite WRITE', async () => {
    const w = await watched(false)
    writeFileSync(w.at('existing.txt'), 'old')
    await w.settle()
    w.events.length = 0
    const tempNew = w.at(uploadTempName())
    writeFileSync(tempNew, 'fresh')
    renameSync(tempNew, w.at('fresh.txt'))
    const tempOld = w.at(uploadTempName())
    writeFileSync(tempOld, 'replaced')
    renameSync(tempOld, w.at('existing.txt'))
    expect(await w.settle()).toEqual(['CREATE fresh.txt', 'WRITE existing.txt'])
  })

  it('reports the watched directory itself as "." (CHMOD, then REMOVE when it goes)', async () => {
    const w = await watched(true)
    chmodSync(w.root, 0o700)
    await w.until((e) => e.includes('CHMOD .'))
    mkdirSync(w.at('sub'))
    await w.until((e) => e.includes('CREATE sub'))
    rmSync(w.root, { recursive: true })
    await w.until((e) => e.includes('REMOVE .'))
    expect(w.events).toContain('REMOVE sub')
    expect(w.watcher.watchCount).toBe(0)
    expect(w.errors).toEqual([])
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
    const watcher = new TreeWatcher(join(tmpdir(), 'no-such-dir-for-watch'), {
      recursive: false,
      onChanges: () => {},
      onError: () => {},
    })
    await expect(watcher.start()).rejects.toThrow()
    expect(watcher.watchCount).toBe(0)
  })

  it('refuses a tree with more directories than its limit, holding no watch, and stops when one grows past it', async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'tree-watch-limit-')))
    for (const name of ['a', 'b', 'c']) mkdirSync(join(base, name))
    const tooSmall = new TreeWatcher(base, {
      recursive: true,
      maxDirs: 3,
      onChanges: () => {},
      onError: () => {},
    })
    await expect(tooSmall.start()).rejects.toMatchObject({ code: Code.ResourceExhausted })
    expect(tooSmall.watchCount).toBe(0)

    const errors: Error[] = []
    const fits = new TreeWatcher(base, {
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
