// Go to File's list against a real runtime, ripgrep and the real file watch: what is listed, what
// is left out, files made and removed (and a folder renamed) followed live, find where rg is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestRuntime, type TestRuntime } from '../../../server/runtime/testing/runtimeFixture'
import { FileWatch } from '../fileWatch'
import { SandboxSession } from '../SandboxSession'
import { WorkspaceFiles, type WorkspaceFilesOptions } from './WorkspaceFiles'

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('WorkspaceFiles', { timeout: 60_000 }, () => {
  let rt: TestRuntime
  let session: SandboxSession
  let watch: FileWatch
  const lists: WorkspaceFiles[] = []
  const write = (name: string, text = 'x\n') =>
    session.files.write(`${rt.home}/${name}`, new TextEncoder().encode(text))
  const listed = async (options: WorkspaceFilesOptions = {}) => {
    const list = new WorkspaceFiles(session, watch, { relistDelayMs: 100, relistEveryMs: 300, ...options })
    lists.push(list)
    list.ensure()
    await until('the list', () => list.getSnapshot().state === 'ready')
    return list
  }
  const paths = (list: WorkspaceFiles) => [...list.getSnapshot().paths].sort()

  beforeAll(async () => {
    rt = await startTestRuntime()
    session = new SandboxSession({ source: 'runtime', runtimeUrl: rt.url, accessToken: rt.token ?? '' })
    session.start()
    await until('the session', () => session.getSnapshot().state.kind === 'running')
    watch = new FileWatch(session)
    await Promise.all([
      write('app/src/deep/nested/component.tsx'),
      write('app/README.md'),
      write('app/.gitignore', 'dist/\n'),
      write('app/dist/bundle.js'),
      write('app/.github/ci.yml'),
      write('app/.git/HEAD'),
      write('.cache/pip/blob'),
      write('.bashrc'),
      write('notes/a\nb.txt'),
    ])
  })
  afterAll(async () => {
    for (const list of lists) list.dispose()
    watch?.dispose()
    session?.dispose()
    await rt?.close()
  })

  it('lists every file once, .gitignore respected, the home’s dot-entries and .git left out, a project’s dotfiles kept', async () => {
    const list = await listed()
    expect(paths(list)).toEqual([
      'app/.github/ci.yml',
      'app/.gitignore',
      'app/README.md',
      'app/src/deep/nested/component.tsx',
      'notes/a\nb.txt',
    ])
    expect(list.getSnapshot()).toMatchObject({ root: rt.home, engine: 'ripgrep', truncated: false })
  })

  it('follows the watch: a new file comes, a removed one goes, a renamed folder moves, an ignored one stays out', async () => {
    const list = await listed()
    await write('app/src/deep/nested/other.ts')
    await until('the new file', () => list.getSnapshot().paths.includes('app/src/deep/nested/other.ts'))
    await session.files.remove(`${rt.home}/app/README.md`)
    await until('the removed file to go', () => !list.getSnapshot().paths.includes('app/README.md'))
    // A new folder is listed again, .gitignore and all.
    await write('app/lib/new/thing.ts')
    await write('app/dist/more.js')
    await until('the new folder', () => list.getSnapshot().paths.includes('app/lib/new/thing.ts'))
    await session.files.move(`${rt.home}/app/src`, `${rt.home}/app/source`)
    await until('the renamed folder', () =>
      list.getSnapshot().paths.includes('app/source/deep/nested/component.tsx'),
    )
    expect(paths(list).filter((p) => p.startsWith('app/src/'))).toEqual([])
    expect(paths(list)).not.toContain('app/dist/more.js')
    await session.files.move(`${rt.home}/app/source`, `${rt.home}/app/src`)
    await write('app/README.md')
  })

  it('stops at the cap and says so', async () => {
    const list = await listed({ maxFiles: 2 })
    expect(list.getSnapshot()).toMatchObject({ truncated: true })
    expect(list.getSnapshot().paths).toHaveLength(2)
  })

  it('lists with find where ripgrep is missing (no .gitignore then), the same dot-entries left out', async () => {
    const list = await listed({ ripgrep: 'rg-not-installed-here' })
    expect(list.getSnapshot().engine).toBe('find')
    expect(paths(list)).toEqual(
      expect.arrayContaining(['app/.github/ci.yml', 'app/dist/bundle.js', 'notes/a\nb.txt']),
    )
    expect(paths(list).some((p) => p.startsWith('.') || p.includes('.git/'))).toBe(false)
  })
})
