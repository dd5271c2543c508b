// Our unified diff against the real tools: GNU patch applies it back, it is as short as GNU
// diff's --minimal, and where the diff can be only one, it is diff -u's, byte for byte.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { diffHunks, unifiedDiff } from './unifiedDiff'

const dir = mkdtempSync(join(tmpdir(), 'unified-diff-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** GNU diff's hunks (its two header lines dropped). */
function gnuHunks(before: string, after: string): string {
  writeFileSync(join(dir, 'a'), before)
  writeFileSync(join(dir, 'b'), after)
  const run = spawnSync('diff', ['--minimal', '-u', 'a', 'b'], { cwd: dir, encoding: 'utf8' })
  return run.stdout.split('\n').slice(2).join('\n')
}

/** Applies our diff to `before` with GNU patch; what it made. */
function patched(before: string, hunks: string): string {
  writeFileSync(join(dir, 'f'), before)
  writeFileSync(join(dir, 'f.diff'), `--- a/f\n+++ b/f\n${hunks}`)
  const run = spawnSync('patch', ['-s', '-p1', '--no-backup-if-mismatch', '-i', 'f.diff'], {
    cwd: dir,
    encoding: 'utf8',
  })
  expect(run.status, run.stderr + run.stdout).toBe(0)
  return readFileSync(join(dir, 'f'), 'utf8')
}

const changedLines = (hunks: string) => hunks.split('\n').filter((l) => /^[+-]/.test(l)).length

describe('diffHunks', () => {
  it('is diff -u where only one diff is right', () => {
    const cases: [string, string][] = [
      ['a\nb\nc\n', 'a\nB\nc\n'],
      ['', 'one\ntwo\n'],
      ['one\ntwo\n', ''],
      ['x\n', 'x'],
      ['x', 'y'],
      [
        `${Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n')}\n`,
        Array.from({ length: 30 }, (_, i) => (i === 3 || i === 25 ? `LINE ${i}` : `line ${i}`)).join('\n') +
          '\n',
      ],
    ]
    for (const [before, after] of cases)
      expect(diffHunks(before, after), JSON.stringify([before, after])).toBe(gnuHunks(before, after))
  })

  it('is empty for equal texts', () => {
    expect(diffHunks('same\n', 'same\n')).toBe('')
    expect(diffHunks('', '')).toBe('')
  })

  it('on random texts, patch makes the new text from it and it is as short as GNU diff --minimal', () => {
    let seed = 42
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const text = () => {
      const lines = Array.from({ length: random(40) }, () => 'abcde'[random(5)] as string)
      return lines.join('\n') + (lines.length && random(4) ? '\n' : '')
    }
    for (let round = 0; round < 60; round++) {
      const before = text()
      const after = text()
      const hunks = diffHunks(before, after)
      if (before === after) {
        expect(hunks).toBe('')
        continue
      }
      expect(patched(before, hunks), JSON.stringify([before, after])).toBe(after)
      expect(changedLines(hunks)).toBe(changedLines(gnuHunks(before, after)))
    }
  })

  it('shows a file whose edits are too many to search as replaced whole, still right', () => {
    const before = `${Array.from({ length: 1500 }, (_, i) => `a${i}`).join('\n')}\n`
    const after = `${Array.from({ length: 1500 }, (_, i) => `b${i}`).join('\n')}\n`
    expect(patched(before, diffHunks(before, after))).toBe(after)
  })
})

describe('unifiedDiff', () => {
  it('names each file, with /dev/null for one on a side only, and skips the same ones', () => {
    const text = (path: string, content: string) => ({ path, content: new TextEncoder().encode(content) })
    const png = (path: string, last: number) => ({ path, content: new Uint8Array([0x89, 0x50, 0, last]) })
    const diff = unifiedDiff(
      [
        text('solution.py', 'return 0\n'),
        text('same.txt', 'x\n'),
        text('gone.txt', 'bye\n'),
        png('logo.png', 1),
        png('same.png', 1),
        text('empty.txt', ''),
      ],
      [
        text('solution.py', 'return sum(numbers)\n'),
        text('same.txt', 'x\n'),
        text('notes/plan.txt', 'mine\n'),
        png('logo.png', 2),
        png('same.png', 1),
      ],
    )
    expect(diff).toBe(
      [
        '--- a/empty.txt',
        '+++ /dev/null',
        '--- a/gone.txt',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-bye',
        'Binary files a/logo.png and b/logo.png differ',
        '--- /dev/null',
        '+++ b/notes/plan.txt',
        '@@ -0,0 +1 @@',
        '+mine',
        '--- a/solution.py',
        '+++ b/solution.py',
        '@@ -1 +1 @@',
        '-return 0',
        '+return sum(numbers)',
        '',
      ].join('\n'),
    )
  })
})
