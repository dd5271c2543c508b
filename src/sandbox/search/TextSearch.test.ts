// Find in Files against a real runtime and the real ripgrep (and grep) that `npm start` installs:
// what is found and only that, the options, the cap, a cancel that kills the process, an invalid
// regex, the fallback to grep, hostile names, and unsaved text searched in the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../../../server/runtime/testing/runtimeFixture'
import { SandboxSession } from '../SandboxSession'
import { type SearchOutcome, SearchQueryError, TextSearch, type TextSearchOptions } from './TextSearch'
import type { FileMatches, TextQuery } from './textQuery'

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('TextSearch', { timeout: 60_000 }, () => {
  let rt: TestRuntime
  let session: SandboxSession
  const write = (name: string, text: string) =>
    session.files.write(`${rt.home}/${name}`, new TextEncoder().encode(text))

  /** Runs a search to its end; answers its files (sorted by path) and outcome. */
  async function search(query: TextQuery, options: TextSearchOptions = {}) {
    const files: FileMatches[] = []
    const service = new TextSearch(session, options)
    const outcome: SearchOutcome = await service.search(query, (batch) => files.push(...batch)).done
    files.sort((a, b) => (a.path < b.path ? -1 : 1))
    return { files, outcome, paths: files.map((f) => f.path.slice(rt.home.length + 1)) }
  }

  beforeAll(async () => {
    rt = await startTestRuntime()
    session = new SandboxSession({ source: 'runtime', runtimeUrl: rt.url, accessToken: rt.token ?? '' })
    session.start()
    await until('the session', () => (session.getSnapshot().state.kind === 'running' ? true : undefined))
    await Promise.all([
      ...Array.from({ length: 300 }, (_, i) =>
        write(`project/src/dir${i % 10}/file${i}.ts`, `export const value${i} = ${i}\n`),
      ),
      write('project/src/dir3/alpha.ts', 'line one\nconst needle = 1 // Needle\n'),
      write('project/lib/beta.py', 'needle()\n'),
      write('project/docs/gamma.md', '# Needles and a needle\n'),
      write('project/.gitignore', 'build/\n'),
      write('project/build/out.js', 'needle\n'),
      write('project/.github/workflow.yml', 'run: needle\n'),
      write('.cache/tool/state', 'needle\n'),
      write('project/.git/config', 'needle\n'),
    ])
  })
  afterAll(async () => {
    session?.dispose()
    await rt?.close()
  })

  it('finds a word in exactly the 4 files of 300 that hold it, at the right places, with ripgrep', async () => {
    const { paths, files, outcome } = await search({ pattern: 'needle', matchCase: true, wholeWord: true })
    expect(paths).toEqual([
      'project/.github/workflow.yml',
      'project/docs/gamma.md',
      'project/lib/beta.py',
      'project/src/dir3/alpha.ts',
    ])
    expect(outcome).toMatchObject({
      engine: 'ripgrep',
      matches: 4,
      files: 4,
      limitHit: false,
      cancelled: false,
    })
    const alpha = files.find((f) => f.path.endsWith('alpha.ts'))
    expect(alpha?.matches).toMatchObject([
      { line: 2, start: 6, end: 12, preview: { before: 'const ', match: 'needle' } },
    ])
  })

  it('ignores case unless asked, and finds parts of words unless asked for whole words', async () => {
    const { files } = await search({ pattern: 'needle' })
    const alpha = files.find((f) => f.path.endsWith('alpha.ts'))
    expect(alpha?.matches.map((m) => m.start)).toEqual([6, 20])
    const gamma = files.find((f) => f.path.endsWith('gamma.md'))
    expect(gamma?.matches).toHaveLength(2)
  })

  it('reads regular expressions, and includes and excludes by glob as VS Code does', async () => {
    expect(
      (await search({ pattern: 'value2\\d\\b', isRegex: true, include: ['dir2'] })).outcome.matches,
    ).toBe(1)
    expect((await search({ pattern: 'needle', include: ['*.py', './project/docs'] })).paths).toEqual([
      'project/docs/gamma.md',
      'project/lib/beta.py',
    ])
    expect((await search({ pattern: 'needle', exclude: ['src', '*.md'] })).paths).toEqual([
      'project/.github/workflow.yml',
      'project/lib/beta.py',
    ])
  })

  it('leaves out what .gitignore says, the home’s dot-folders and .git, unless asked for ignored files', async () => {
    const { paths } = await search({ pattern: 'needle', includeIgnored: true })
    expect(paths).toContain('project/build/out.js')
    expect(paths).toContain('.cache/tool/state')
    expect(paths).not.toContain('project/.git/config')
  })

  it('stops at the cap and says there is more', async () => {
    const { outcome, files } = await search({ pattern: 'export', maxResults: 25 })
    expect(outcome).toMatchObject({ limitHit: true, matches: 25 })
    expect(files.flatMap((f) => f.matches)).toHaveLength(25)
  })

  it('says why a regex is invalid, in ripgrep’s words', async () => {
    const failed = await search({ pattern: 'a(b', isRegex: true }).catch((err: unknown) => err)
    expect(failed).toBeInstanceOf(SearchQueryError)
    expect((failed as Error).message).toContain('regex parse error')
    expect((failed as Error).message).toContain('unclosed group')
  })

  it('kills the search’s process at once on cancel: it is gone from the process list', async () => {
    await write('big/many.txt', 'needle in a haystack\n'.repeat(200_000))
    const service = new TextSearch(session)
    let found = 0
    const run = service.search({ pattern: 'needle', include: ['./big'], maxResults: 10_000_000 }, (batch) => {
      found += batch.length
    })
    const running = async () =>
      (await session.processes.list()).find((p) => p.tag === 'ide-search' && p.config?.args.includes('rg'))
    const process = await until('rg to run', running)
    run.cancel()
    const outcome = await run.done
    expect(outcome.cancelled).toBe(true)
    await until('rg to be gone', async () => ((await running()) === undefined ? true : undefined), 3000)
    expect((await session.processes.list()).some((p) => p.pid === process.pid)).toBe(false)
    await session.files.remove(`${rt.home}/big`)
    // Nothing arrives after a cancel.
    const after = found
    await new Promise((r) => setTimeout(r, 200))
    expect(found).toBe(after)
  })

  it('falls back to grep where ripgrep is missing, saying so, with the same files and columns', async () => {
    const { paths, outcome, files } = await search(
      { pattern: 'needle', matchCase: true, wholeWord: true, include: ['./project'] },
      { ripgrep: 'rg-not-installed-here' },
    )
    expect(outcome.engine).toBe('grep')
    // grep reads no .gitignore, and cannot anchor a dot-folder to the top: a project's .github is left out too.
    expect(paths).toEqual([
      'project/build/out.js',
      'project/docs/gamma.md',
      'project/lib/beta.py',
      'project/src/dir3/alpha.ts',
    ])
    expect(files.find((f) => f.path.endsWith('alpha.ts'))?.matches).toMatchObject([
      { line: 2, start: 6, end: 12 },
    ])
    const invalid = await search(
      { pattern: 'a(b', isRegex: true },
      { ripgrep: 'rg-not-installed-here' },
    ).catch((err: unknown) => err)
    expect(invalid).toBeInstanceOf(SearchQueryError)
    expect((await search({ pattern: 'needle', include: ['*.py'] }, { ripgrep: 'nope' })).paths).toEqual([
      'project/lib/beta.py',
    ])
  })

  it('finds files with hostile names (a newline, quotes, $(…), a leading dash) and passes hostile queries as typed', async () => {
    const names = ['hostile/new\nline.txt', 'hostile/quo"te\'s $(touch pwned).txt', 'hostile/-rf.txt']
    await Promise.all(names.map((name) => write(name, 'x "$HOME" `id` \'q\' hostile-marker\n')))
    for (const options of [{}, { ripgrep: 'rg-not-installed-here' }]) {
      const { paths } = await search({ pattern: 'hostile-marker' }, options)
      expect(paths.sort()).toEqual([...names].sort())
      const quoted = await search({ pattern: '"$HOME" `id` \'q\'', include: ['./hostile'] }, options)
      expect(quoted.outcome.matches).toBe(3)
    }
    // No shell read a name or the query: nothing ran `touch pwned` in the searched folder.
    expect(await session.files.find(`${rt.home}/pwned`)).toBeUndefined()
  })

  it('searches open files with unsaved changes as the editor holds them, in place of the disk', async () => {
    const alpha = `${rt.home}/project/src/dir3/alpha.ts`
    const beta = `${rt.home}/project/lib/beta.py`
    const unsaved = new Map([
      [alpha, 'nothing here now\n'],
      [beta, 'needle()\n\n  another needle\n'],
    ])
    const { paths, files } = await search(
      { pattern: 'needle', matchCase: true, wholeWord: true },
      { unsavedText: () => unsaved },
    )
    expect(paths).not.toContain('project/src/dir3/alpha.ts')
    const betaFile = files.find((f) => f.path === beta)
    expect(betaFile).toMatchObject({ unsaved: true })
    expect(betaFile?.matches.map((m) => [m.line, m.start])).toEqual([
      [1, 0],
      [3, 10],
    ])
  })
})
