import { describe, expect, it } from 'vitest'
import { globToRegExp, protectingGlob } from './labGlob'

const matches = (glob: string, path: string) => globToRegExp(glob).test(path)

describe('lab globs', () => {
  it('keeps * and ? within one segment', () => {
    expect(matches('*.py', 'main.py')).toBe(true)
    expect(matches('*.py', 'src/main.py')).toBe(false)
    expect(matches('test_?.py', 'test_a.py')).toBe(true)
    expect(matches('test_?.py', 'test_ab.py')).toBe(false)
    expect(matches('src/*', 'src/a/b')).toBe(false)
  })

  it('lets ** span any number of segments, none included', () => {
    expect(matches('tests/**', 'tests')).toBe(true)
    expect(matches('tests/**', 'tests/test_main.py')).toBe(true)
    expect(matches('tests/**', 'tests/unit/deep/a.py')).toBe(true)
    expect(matches('tests/**', 'tests2/a.py')).toBe(false)
    expect(matches('**/*.md', 'README.md')).toBe(true)
    expect(matches('**/*.md', 'docs/a/b.md')).toBe(true)
    expect(matches('a/**/b', 'a/b')).toBe(true)
    expect(matches('a/**/b', 'a/x/y/b')).toBe(true)
    expect(matches('a/**/b', 'a/xb')).toBe(false)
    expect(matches('**', 'anything/at/all')).toBe(true)
  })

  it('reads a trailing slash as the folder and everything in it, and ignores a leading ./', () => {
    expect(matches('tests/', 'tests/a.py')).toBe(true)
    expect(matches('tests/', 'tests')).toBe(true)
    expect(matches('./main.py', 'main.py')).toBe(true)
  })

  it('takes every other character literally', () => {
    expect(matches('.lab/**', '.lab/lab.json')).toBe(true)
    expect(matches('.lab/**', 'xlab/lab.json')).toBe(false)
    expect(matches('a+b(1).txt', 'a+b(1).txt')).toBe(true)
    expect(matches('[ab].txt', 'a.txt')).toBe(false)
  })

  it('protects a path a glob matches, and a folder that holds one', () => {
    const globs = ['tests/unit/*.py', '.lab/**']
    expect(protectingGlob(globs, 'tests/unit/test_a.py')).toBe('tests/unit/*.py')
    expect(protectingGlob(globs, 'tests')).toBe('tests/unit/*.py')
    expect(protectingGlob(globs, 'tests/unit')).toBe('tests/unit/*.py')
    expect(protectingGlob(globs, '.lab')).toBe('.lab/**')
    expect(protectingGlob(globs, 'main.py')).toBeUndefined()
    expect(protectingGlob(globs, 'test')).toBeUndefined()
    expect(protectingGlob(globs, '')).toBeUndefined()
  })
})
