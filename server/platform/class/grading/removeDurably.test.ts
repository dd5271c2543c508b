import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { removeDurably, sweepRemovals } from './removeDurably'

describe('removeDurably', () => {
  const made: string[] = []
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'remove-'))
    made.push(dir)
    return dir
  }
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('removes a folder with read-only files and leaves nothing beside it', () => {
    const root = folder()
    mkdirSync(join(root, 'a', 'files', 'deep'), { recursive: true })
    writeFileSync(join(root, 'a', 'files', 'deep', 'x.py'), 'x', { mode: 0o400 })
    writeFileSync(join(root, 'b'), 'kept')
    removeDurably(join(root, 'a'))
    expect(readdirSync(root)).toEqual(['b'])
  })

  it('sweeps what a killed removal left aside, and nothing else', () => {
    const root = folder()
    mkdirSync(join(root, '.removing-a', 'files'), { recursive: true })
    mkdirSync(join(root, 'b'))
    sweepRemovals(root)
    expect(readdirSync(root)).toEqual(['b'])
    expect(existsSync(join(root, 'b'))).toBe(true)
  })
})
