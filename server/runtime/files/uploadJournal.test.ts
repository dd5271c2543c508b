import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { UploadJournal } from './uploadJournal'

describe('UploadJournal', () => {
  const dirs: string[] = []
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'))
    dirs.push(dir)
    return dir
  }
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('finishes an in-place write a kill cut short: the target gets the whole new text, in place', async () => {
    const home = folder()
    const journal = new UploadJournal(join(home, '.sandbox-runtime', 'writes'))
    const target = join(home, 'notes.txt')
    const temp = join(home, '.notes.txt.upload')
    writeFileSync(target, 'old text')
    const inode = statSync(target).ino
    writeFileSync(temp, 'the whole new text')
    await journal.begin(temp, target)
    // Killed after the truncation and a few bytes.
    writeFileSync(target, 'the wh')
    expect(await new UploadJournal(journal.dir).recover()).toEqual([target])
    expect(readFileSync(target, 'utf8')).toBe('the whole new text')
    expect(statSync(target).ino).toBe(inode)
    expect(existsSync(temp)).toBe(false)
    expect(readdirSync(journal.dir)).toEqual([])
  })

  it('strikes a finished write off; a half-written entry or one whose copy is gone changes nothing', async () => {
    const home = folder()
    const journal = new UploadJournal(join(home, 'writes'))
    const target = join(home, 'a.txt')
    writeFileSync(target, 'new')
    writeFileSync(join(home, 'tmp'), 'new')
    const done = await journal.begin(join(home, 'tmp'), target)
    await done()
    await journal.begin(join(home, 'gone'), target)
    writeFileSync(join(journal.dir, 'x.json.tmp'), '{"temp":')
    writeFileSync(join(journal.dir, 'damaged.json'), 'not json')
    expect(await journal.recover()).toEqual([])
    expect(readFileSync(target, 'utf8')).toBe('new')
    expect(readdirSync(journal.dir)).toEqual([])
  })

  it('has nothing to do where no write was ever written down', async () => {
    expect(await new UploadJournal(join(folder(), 'none')).recover()).toEqual([])
  })
})
