import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  DamagedRecordError,
  readJsonRecord,
  readJsonRecordOrSetAside,
  readRecordFile,
  writeRecordFile,
} from './recordFile'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'record-file-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The pid of a process that has ended. */
function deadPid(): number {
  const { pid } = spawnSync('true')
  if (!pid) throw new Error('could not run true')
  return pid
}

const isList = (value: unknown) => (Array.isArray(value) ? value : undefined)

describe('writeRecordFile', () => {
  it('replaces the record whole, readable by its owner only, with no temporary file left', () => {
    const path = join(dir, 'records.json')
    writeRecordFile(path, '[1]\n')
    writeRecordFile(path, '[1,2]\n')
    expect(readFileSync(path, 'utf8')).toBe('[1,2]\n')
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual(['records.json'])
  })

  it('gives the mode asked for, whatever a leftover temporary file had', () => {
    const path = join(dir, 'hosts')
    writeFileSync(`${path}.${process.pid}.tmp`, 'old', { mode: 0o666 })
    writeRecordFile(path, '127.0.0.1 localhost\n', 0o644)
    expect(statSync(path).mode & 0o777).toBe(0o644)
  })

  it.runIf(process.getuid?.() === 0)(
    'keeps the old record and leaves no temporary file when the disk is full',
    () => {
      const small = join(dir, 'small')
      mkdirSync(small)
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small])
      try {
        const path = join(small, 'records.json')
        writeRecordFile(path, '["old"]\n')
        expect(() => writeRecordFile(path, `["${'x'.repeat(200_000)}"]\n`)).toThrow(/ENOSPC/)
        expect(readFileSync(path, 'utf8')).toBe('["old"]\n')
        expect(readdirSync(small)).toEqual(['records.json'])
      } finally {
        execFileSync('umount', [small])
      }
    },
  )

  it('leaves the old or the new record, never a mix, when its process is killed at any moment', async () => {
    const path = join(dir, 'records.json')
    const size = 256 * 1024
    // A writer that alternates two big records as fast as it can, killed at random moments.
    const writer = `
      const { writeRecordFile } = await import(${JSON.stringify(join(import.meta.dirname, 'recordFile.ts'))})
      for (let i = 0; ; i++) writeRecordFile(${JSON.stringify(path)}, (i % 2 ? 'b' : 'a').repeat(${size}))
    `
    for (let round = 0; round < 6; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', writer], {
        stdio: 'ignore',
      })
      const exited = new Promise((resolve) => child.once('exit', resolve))
      // Until its first write is done, then a little more: somewhere in a later write.
      while (readRecordFileQuietly(path) === undefined) await sleep(5)
      await sleep(Math.random() * 30)
      child.kill('SIGKILL')
      await exited
      const text = readRecordFile(path)
      expect(text === 'a'.repeat(size) || text === 'b'.repeat(size), `round ${round}`).toBe(true)
      expect(readdirSync(dir), 'the killed write’s temporary file is removed').toEqual(['records.json'])
      rmSync(path)
    }
  })
})

/** The record's text without touching temporary files (a write may be under way). */
function readRecordFileQuietly(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

describe('readRecordFile', () => {
  it('is undefined for a record not written yet', () => {
    expect(readRecordFile(join(dir, 'none.json'))).toBeUndefined()
  })

  it('ignores and removes what a killed write left, of this version or an older one', () => {
    const path = join(dir, 'join-links.json')
    writeRecordFile(path, '[]\n')
    writeFileSync(`${path}.${deadPid()}.tmp`, '[{"half')
    writeFileSync(`${path}.${deadPid()}.partial`, '[{"half')
    writeFileSync(`${path}.${process.pid}.tmp`, '[{"half')
    expect(readRecordFile(path)).toBe('[]\n')
    expect(readdirSync(dir)).toEqual(['join-links.json'])
  })

  it('leaves alone a write that another live process has under way, and other records’ files', () => {
    const path = join(dir, 'ide-token')
    const othersWrite = `${path}.${process.ppid}.tmp`
    writeFileSync(othersWrite, 'new-token')
    writeFileSync(join(dir, 'ide-token-backup.1.tmp'), 'mine')
    expect(readRecordFile(path)).toBeUndefined()
    expect(readdirSync(dir).sort()).toEqual(['ide-token-backup.1.tmp', `ide-token.${process.ppid}.tmp`])
  })
})

describe('readJsonRecord', () => {
  it('reads what was written', () => {
    const path = join(dir, 'sandboxes.json')
    writeRecordFile(path, '[{"sandboxID":"a"}]\n')
    expect(readJsonRecord(path, 'a list', isList)).toEqual([{ sandboxID: 'a' }])
  })

  it('names the file and what is wrong, never its text (records hold keys)', () => {
    const path = join(dir, 'remotes.json')
    writeFileSync(path, '[{"apiKey":"e2b_secret"')
    expect(() => readJsonRecord(path, 'a list', isList)).toThrow(
      new DamagedRecordError(path, 'it is not valid JSON'),
    )
    try {
      readJsonRecord(path, 'a list', isList)
    } catch (err) {
      expect(String(err)).not.toContain('e2b_secret')
    }
    writeFileSync(path, '')
    expect(() => readJsonRecord(path, 'a list', isList)).toThrow(`${path} is damaged: it is empty`)
    writeFileSync(path, '{"a":1}')
    expect(() => readJsonRecord(path, 'a list of remotes', isList)).toThrow(
      `${path} is damaged: it does not hold a list of remotes`,
    )
  })
})

describe('readJsonRecordOrSetAside', () => {
  it('sets a damaged record aside, says so in one line, and goes on without it', () => {
    const path = join(dir, 'class-checks.json')
    writeFileSync(path, '{"half')
    const lines: string[] = []
    expect(readJsonRecordOrSetAside(path, 'a list', isList, (line) => lines.push(line))).toBeUndefined()
    const [aside, ...rest] = readdirSync(dir)
    expect(rest).toEqual([])
    expect(aside).toMatch(/^class-checks\.json\.damaged-\d{4}-\d\d-\d\dT[\d-]+Z$/)
    expect(readFileSync(join(dir, aside as string), 'utf8')).toBe('{"half')
    expect(lines).toEqual([
      `records: ${path} is damaged: it is not valid JSON; set aside as ${aside}, going on without it`,
    ])
  })

  it('reads a sound record as readJsonRecord does', () => {
    const path = join(dir, 'class-checks.json')
    writeRecordFile(path, '[3]')
    expect(readJsonRecordOrSetAside(path, 'a list', isList, () => {})).toEqual([3])
  })
})
