// Replace on disk against a real runtime, after a real search: exactly the matches replaced, a
// file changed since the search skipped and listed, and an undo that restores what it wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../../../server/runtime/testing/runtimeFixture'
import { SandboxSession } from '../SandboxSession'
import { replaceInFiles, undoReplaceInFiles } from './replaceInFiles'
import { changedSinceSearch, replaceInText } from './replaceInText'
import { TextSearch } from './TextSearch'
import { findInText, queryRegExp, replacementFor } from './textMatcher'
import type { FileMatches, TextQuery } from './textQuery'

const encode = (text: string) => new TextEncoder().encode(text)
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe('replaceInText', () => {
  const query: TextQuery = { pattern: 'colou?r', isRegex: true }
  const text = '\ufeffcolor = 1\r\nconst colour = color\r\n'
  const matches = findInText(text.slice(1), queryRegExp(query), 100)

  it('replaces each match where the search found it, keeping \\r\\n and the byte-order mark', () => {
    expect(replaceInText(text, matches, () => 'hue')).toEqual({
      text: '\ufeffhue = 1\r\nconst hue = hue\r\n',
      count: 3,
    })
  })

  it('fills $1 from the match for a regex, and takes the text as typed for a plain query', () => {
    const groups: TextQuery = { pattern: '(\\w+) = (\\d)', isRegex: true }
    const found = findInText('a = 1\nbb = 2\n', queryRegExp(groups), 10)
    const replaced = replaceInText('a = 1\nbb = 2\n', found, (m) => replacementFor(m, groups, '$2 = $1'))
    expect(replaced).toEqual({ text: '1 = a\n2 = bb\n', count: 2 })
    expect(replacementFor('x', { pattern: 'x' }, '$1')).toBe('$1')
  })

  it('refuses, replacing nothing, when a matched line is not the one the search saw', () => {
    expect(replaceInText('\ufeffcolor = 2\r\nconst colour = color\r\n', matches, () => 'hue')).toEqual({
      reason: changedSinceSearch,
    })
    expect(replaceInText('color = 1\r\n', matches, () => 'hue')).toEqual({ reason: changedSinceSearch })
  })
})

describe('replaceInFiles', { timeout: 60_000 }, () => {
  let rt: TestRuntime
  let session: SandboxSession
  const path = (name: string) => `${rt.home}/${name}`
  const write = (name: string, text: string) => session.files.write(path(name), encode(text))
  const read = async (name: string) => decode(await session.files.read(path(name)))

  beforeAll(async () => {
    rt = await startTestRuntime()
    session = new SandboxSession({ source: 'runtime', runtimeUrl: rt.url, accessToken: rt.token ?? '' })
    session.start()
    for (let i = 0; session.getSnapshot().state.kind !== 'running'; i++) {
      if (i > 200) throw new Error('the session did not connect')
      await new Promise((r) => setTimeout(r, 50))
    }
  })
  afterAll(async () => {
    session?.dispose()
    await rt?.close()
  })

  it('replaces exactly the matches found, skips the files changed since the search, and undoes what it wrote', async () => {
    await Promise.all([
      write('r/one.ts', 'const oldName = 1\nexport { oldName }\n'),
      write('r/two.ts', 'import { oldName } from "./one"\n'),
      write('r/three.ts', '// oldName, café\n'),
      write('r/moved.ts', 'oldName()\n'),
      write('r/grown.ts', 'oldName()\n'),
      write('r/other.ts', 'nothing to see\n'),
    ])
    const files: FileMatches[] = []
    const query: TextQuery = { pattern: 'oldName', matchCase: true, include: ['./r'] }
    await new TextSearch(session).search(query, (batch) => files.push(...batch)).done
    expect(files).toHaveLength(5)
    // Changed since the search: a matched line edited (same size), and a line added elsewhere.
    await write('r/moved.ts', 'oldNamX()\n')
    await write('r/grown.ts', 'oldName()\n// more\n')

    const outcome = await replaceInFiles(session.files, files, (m) => replacementFor(m, query, 'newName'))
    expect(outcome.replaced.map((f) => f.path).sort()).toEqual([
      path('r/one.ts'),
      path('r/three.ts'),
      path('r/two.ts'),
    ])
    expect(outcome.skipped.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: path('r/grown.ts'), reason: changedSinceSearch },
      { path: path('r/moved.ts'), reason: changedSinceSearch },
    ])
    expect(await read('r/one.ts')).toBe('const newName = 1\nexport { newName }\n')
    expect(await read('r/two.ts')).toBe('import { newName } from "./one"\n')
    expect(await read('r/three.ts')).toBe('// newName, café\n')
    expect(await read('r/moved.ts')).toBe('oldNamX()\n')
    expect(await read('r/other.ts')).toBe('nothing to see\n')

    // Undo: every file it wrote gets its old text back, except one changed since.
    await write('r/two.ts', 'import { newName } from "./one" // edited\n')
    const undone = await undoReplaceInFiles(session.files, outcome.replaced)
    expect(undone.restored.sort()).toEqual([path('r/one.ts'), path('r/three.ts')])
    expect(undone.skipped).toEqual([{ path: path('r/two.ts'), reason: 'it changed since the replace' }])
    expect(await read('r/one.ts')).toBe('const oldName = 1\nexport { oldName }\n')
    expect(await read('r/three.ts')).toBe('// oldName, café\n')
  })

  it('leaves a file that is not UTF-8 alone, and says why', async () => {
    await session.files.write(path('latin/l.txt'), new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x78, 0x0a]))
    const files: FileMatches[] = []
    await new TextSearch(session).search({ pattern: 'x', include: ['./latin'] }, (b) => files.push(...b)).done
    expect(files[0]?.matches[0]?.lossy).toBe(true)
    const outcome = await replaceInFiles(session.files, files, () => 'y')
    expect(outcome).toEqual({
      replaced: [],
      skipped: [{ path: path('latin/l.txt'), reason: 'it is not UTF-8 text' }],
    })
  })
})
