import { describe, expect, it } from 'vitest'
import { matchedLetters, prepareFiles, rankFiles } from './fuzzyFiles'

const rank = (paths: string[], query: string, recent?: string[]) =>
  rankFiles(prepareFiles(paths), query, recent ? { recent } : {}).map((r) => r.path)

describe('rankFiles', () => {
  it('matches letters in order, case ignored, and nothing else', () => {
    expect(rank(['src/App.tsx', 'src/main.ts', 'README.md'], 'apx')).toEqual(['src/App.tsx'])
    expect(rank(['src/App.tsx'], 'xpa')).toEqual([])
  })

  it('ranks a match inside the file name above one spread over its folders', () => {
    expect(rank(['src/components/Button.tsx', 'src/deep/nested/component.tsx'], 'comp')).toEqual([
      'src/deep/nested/component.tsx',
      'src/components/Button.tsx',
    ])
  })

  it('ranks the exact name first, then the start of words and camelCase humps, then letters in a row', () => {
    expect(rank(['src/indexer/ts.ts', 'lib/reindex.ts', 'src/index.ts'], 'index.ts')[0]).toBe('src/index.ts')
    expect(rank(['lib/fabric.ts', 'lib/FooBar.ts'], 'fb')).toEqual(['lib/FooBar.ts', 'lib/fabric.ts'])
    expect(rank(['a/b_a_r.ts', 'a/sidebar.ts'], 'bar')).toEqual(['a/sidebar.ts', 'a/b_a_r.ts'])
    expect(rank(['x/text_search.py', 'x/tease.py'], 'ts')[0]).toBe('x/text_search.py')
  })

  it('prefers the shorter path when the match is as good', () => {
    expect(rank(['x/y/z/a.ts', 'a.ts', 'x/a.ts'], 'a.ts')).toEqual(['a.ts', 'x/a.ts', 'x/y/z/a.ts'])
  })

  it('puts recently opened files first, most recent first, and lists them alone when nothing is typed', () => {
    const paths = ['util.ts', 'lib/util.ts', 'old/util.ts', 'other.ts']
    expect(rank(paths, 'util', ['old/util.ts', 'lib/util.ts'])).toEqual([
      'old/util.ts',
      'lib/util.ts',
      'util.ts',
    ])
    expect(rank(paths, '', ['lib/util.ts', 'gone.ts'])).toEqual(['lib/util.ts'])
  })

  it('needs each word of the query, anywhere in the path', () => {
    expect(
      rank(['src/features/search/SearchView.tsx', 'src/features/files/View.tsx'], 'search view'),
    ).toEqual(['src/features/search/SearchView.tsx'])
    expect(rank(['src/features/search/SearchView.tsx'], 'feat/sea')).toEqual([
      'src/features/search/SearchView.tsx',
    ])
  })

  it('says where the letters matched, for highlighting', () => {
    const [hit] = rankFiles(prepareFiles(['src/deep/nested/component.tsx']), 'comp')
    expect(hit?.positions).toEqual([16, 17, 18, 19])
    const [camel] = rankFiles(prepareFiles(['lib/FooBar.ts']), 'fb')
    expect(camel?.positions).toEqual([4, 7])
    const [spread] = rankFiles(prepareFiles(['src/features/search/SearchView.tsx']), 'fsv')
    const letters = spread?.positions.map((p) => 'src/features/search/SearchView.tsx'[p])
    expect(letters?.join('').toLowerCase()).toBe('fsv')
    expect(letters?.[2]).toBe('V')
  })

  it('finds a deep file among 100,000 by a few letters of its name and folders', () => {
    const paths: string[] = []
    for (let i = 0; i < 100_000; i++)
      paths.push(
        `packages/pkg${i % 100}/src/module${i % 37}/file${i}_${['util', 'view', 'model', 'store'][i % 4]}.ts`,
      )
    paths.push('packages/pkg7/src/very/deep/folder/structure/GoToFileTarget.tsx')
    const files = prepareFiles(paths)
    for (const query of ['gotofile', 'gtft', 'deep target', 'GoToFileTarget']) {
      expect(rankFiles(files, query)[0]?.path).toBe(
        'packages/pkg7/src/very/deep/folder/structure/GoToFileTarget.tsx',
      )
    }
    // A query most paths match still answers its best few, each of them a match.
    const many = rankFiles(files, 'view', { limit: 20 })
    expect(many).toHaveLength(20)
    expect(many.every((r) => r.path.includes('view'))).toBe(true)
  })
})

describe('matchedLetters', () => {
  it('marks the letters typed in a name, runs and word starts first', () => {
    expect(matchedLetters('greet', 'greet_visitor')).toEqual([0, 1, 2, 3, 4])
    expect(matchedLetters('gv', 'greet_visitor')).toEqual([0, 6])
    expect(matchedLetters('lc', 'loadConfig')).toEqual([0, 4])
  })

  it('marks nothing where the letters are not all there in order', () => {
    expect(matchedLetters('xyz', 'greet')).toEqual([])
    expect(matchedLetters('', 'greet')).toEqual([])
  })
})
