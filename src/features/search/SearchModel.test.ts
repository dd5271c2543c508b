import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { replaceInFiles, undoReplaceInFiles } from '../../sandbox/search/replaceInFiles'
import { type SearchOutcome, SearchQueryError } from '../../sandbox/search/TextSearch'
import { findInText, queryRegExp } from '../../sandbox/search/textMatcher'
import type { FileMatches, TextQuery } from '../../sandbox/search/textQuery'
import { type BufferEdit, type SearchBackend, type SearchEditor, SearchModel } from './SearchModel'

const encode = (text: string) => new TextEncoder().encode(text)
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

/** A sandbox's files in memory, with the Stat a conflict check reads. */
function fakeDisk(initial: Record<string, string>) {
  const files = new Map<string, Uint8Array>(Object.entries(initial).map(([p, t]) => [p, encode(t)]))
  const times = new Map<string, number>()
  let clock = 1
  const stat = async (path: string) => {
    const bytes = files.get(path)
    if (!bytes) throw new Error(`${path} not found`)
    return { size: BigInt(bytes.length), modifiedTime: { seconds: BigInt(times.get(path) ?? 0), nanos: 0 } }
  }
  return {
    files,
    text: (path: string) => decode(files.get(path) ?? new Uint8Array()),
    write(path: string, text: string) {
      files.set(path, encode(text))
      times.set(path, clock++)
    },
    api: {
      // biome-ignore lint/suspicious/noExplicitAny: a fake of Stat's entry, its two fields the replace reads
      stat: stat as any,
      read: async (path: string) => files.get(path) ?? new Uint8Array(),
      write: async (path: string, data: Uint8Array | Blob) => {
        files.set(path, data as Uint8Array)
        times.set(path, clock++)
      },
    },
  }
}

/** The domain layer's search, done in the page over the fake disk (the real one is tested against a runtime). */
function fakeBackend(disk: ReturnType<typeof fakeDisk>): SearchBackend & { runs: number } {
  const backend = {
    runs: 0,
    folder: async () => '/h',
    search(query: TextQuery, onResults: (files: FileMatches[]) => void) {
      backend.runs++
      if (query.isRegex && query.pattern.includes('('))
        return {
          done: Promise.reject(new SearchQueryError('regex parse error: unclosed group')),
          cancel: vi.fn(),
        }
      const regex = queryRegExp(query)
      const found: FileMatches[] = []
      for (const [path, bytes] of disk.files) {
        const matches = findInText(decode(bytes), regex, 1000)
        if (matches.length) found.push({ path, matches, size: bytes.length })
      }
      const outcome: SearchOutcome = {
        engine: 'ripgrep',
        matches: found.reduce((n, f) => n + f.matches.length, 0),
        files: found.length,
        limitHit: false,
        cancelled: false,
        warnings: [],
      }
      const done = Promise.resolve().then(() => {
        onResults(found)
        return outcome
      })
      return { done, cancel: vi.fn() }
    },
    replaceOnDisk: (targets: readonly FileMatches[], fn: (m: string) => string) =>
      replaceInFiles(disk.api, targets, fn),
    undoOnDisk: (replaced: Parameters<typeof undoReplaceInFiles>[1]) =>
      undoReplaceInFiles(disk.api, replaced),
  }
  return backend
}

/** Open files as plain strings, each edit one undo step. */
function fakeEditor(
  open: Record<string, string>,
): SearchEditor & { texts: Map<string, string>; opened: unknown[] } {
  const texts = new Map(Object.entries(open))
  const history = new Map<string, string[]>()
  return {
    texts,
    opened: [],
    bufferText: (path) => texts.get(path),
    editBuffer(path, edits) {
      const text = texts.get(path)
      if (text === undefined) return undefined
      let result = text
      for (const e of [...edits].sort((a, b) => b.from - a.from))
        result = result.slice(0, e.from) + e.text + result.slice(e.to)
      history.set(path, [...(history.get(path) ?? []), text])
      texts.set(path, result)
      return { path } satisfies BufferEdit
    },
    undoBufferEdit({ path }) {
      const before = history.get(path)?.pop()
      if (before === undefined) return false
      texts.set(path, before)
      return true
    },
    open(path, at, focus) {
      this.opened.push({ path, at, focus })
    },
  }
}

async function settled(model: SearchModel) {
  await vi.waitFor(() => expect(model.getSnapshot().status).not.toBe('searching'))
}

describe('SearchModel', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }))
  afterEach(() => vi.useRealTimers())

  it('searches 300 ms after typing stops, once, and groups results by file with paths relative to the workspace', async () => {
    const disk = fakeDisk({ '/h/a.ts': 'foo foo\n', '/h/src/b.ts': 'x\nfoo\n', '/h/c.ts': 'bar\n' })
    const backend = fakeBackend(disk)
    const model = new SearchModel(backend, fakeEditor({}))
    model.setForm({ pattern: 'f' })
    model.setForm({ pattern: 'fo' })
    model.setForm({ pattern: 'foo' })
    expect(backend.runs).toBe(0)
    vi.advanceTimersByTime(300)
    vi.useRealTimers()
    await settled(model)
    expect(backend.runs).toBe(1)
    const snap = model.getSnapshot()
    expect(snap.files.map((f) => [f.label, f.matches.length])).toEqual([
      ['a.ts', 2],
      ['src/b.ts', 1],
    ])
    expect(snap.matches).toBe(3)
    model.open(snap.files[1] as never, snap.files[1]?.matches[0] as never)
  })

  it('shows an invalid regex by its box, and clears results when the box is emptied', async () => {
    const model = new SearchModel(fakeBackend(fakeDisk({ '/h/a': 'a(\n' })), fakeEditor({}))
    model.setForm({ pattern: 'a(', isRegex: true })
    model.searchNow()
    vi.useRealTimers()
    await settled(model)
    expect(model.getSnapshot()).toMatchObject({
      status: 'failed',
      queryError: 'regex parse error: unclosed group',
    })
    model.setForm({ pattern: '' })
    expect(model.getSnapshot()).toMatchObject({ status: 'idle', queryError: undefined, files: [] })
  })

  it('opens a match at its place in the editor’s terms', async () => {
    const editor = fakeEditor({})
    const model = new SearchModel(fakeBackend(fakeDisk({ '/h/a.ts': 'xx foo\n' })), editor)
    model.setForm({ pattern: 'foo' })
    model.searchNow()
    vi.useRealTimers()
    await settled(model)
    const file = model.getSnapshot().files[0]
    if (!file?.matches[0]) throw new Error('no match')
    model.open(file, file.matches[0])
    expect(editor.opened).toEqual([
      { path: '/h/a.ts', at: { startLine: 1, startColumn: 4, endLine: 1, endColumn: 7 }, focus: true },
    ])
  })

  it('replaces one match and moves the others of its line; replaces a file; open files in their buffers', async () => {
    const disk = fakeDisk({ '/h/a.ts': 'foo = foo\nfoo\n', '/h/open.ts': 'foo\n' })
    const editor = fakeEditor({ '/h/open.ts': 'foo foo\n' })
    const model = new SearchModel(fakeBackend(disk), editor)
    model.setForm({ pattern: 'foo', replace: 'longer' })
    model.searchNow()
    vi.useRealTimers()
    await settled(model)
    const a = model.getSnapshot().files.find((f) => f.path === '/h/a.ts')
    if (!a?.matches[0]) throw new Error('no match')
    expect(model.replacementPreview(a.matches[0])).toBe('longer')
    await model.replaceMatch(a, a.matches[0])
    expect(disk.text('/h/a.ts')).toBe('longer = foo\nfoo\n')
    const moved = model.getSnapshot().files.find((f) => f.path === '/h/a.ts')
    expect(moved?.matches.map((m) => [m.line, m.start])).toEqual([
      [1, 9],
      [2, 0],
    ])
    if (!moved) throw new Error('the file went')
    await model.replaceFile(moved)
    expect(disk.text('/h/a.ts')).toBe('longer = longer\nlonger\n')
    // The open file's results came from its disk text here, which the buffer no longer holds at that line.
    const open = model.getSnapshot().files.find((f) => f.path === '/h/open.ts')
    if (!open) throw new Error('no open file')
    await model.replaceFile(open)
    expect(model.getSnapshot().files.find((f) => f.path === '/h/open.ts')?.skipped).toBe(
      'it changed since the search',
    )
    expect(editor.texts.get('/h/open.ts')).toBe('foo foo\n')
  })

  it('replaces all, skipping a file changed since the search, and undoes it all', async () => {
    const disk = fakeDisk({
      '/h/1.ts': 'foo\n',
      '/h/2.ts': 'a foo\n',
      '/h/3.ts': 'foo\n',
      '/h/open.ts': 'foo\n',
    })
    const editor = fakeEditor({ '/h/open.ts': 'foo\n' })
    const model = new SearchModel(fakeBackend(disk), editor)
    model.setForm({ pattern: 'foo', replace: 'bar' })
    model.searchNow()
    vi.useRealTimers()
    await settled(model)
    disk.write('/h/3.ts', 'foo\nmore\n')
    await model.replaceAll()
    expect(disk.text('/h/1.ts')).toBe('bar\n')
    expect(disk.text('/h/2.ts')).toBe('a bar\n')
    expect(disk.text('/h/3.ts')).toBe('foo\nmore\n')
    expect(editor.texts.get('/h/open.ts')).toBe('bar\n')
    expect(disk.text('/h/open.ts')).toBe('foo\n')
    expect(model.getSnapshot().report).toEqual({
      kind: 'replaced',
      files: 3,
      matches: 3,
      skipped: [{ path: '/h/3.ts', reason: 'it changed since the search' }],
      canUndo: true,
    })
    expect(model.getSnapshot().files.map((f) => [f.path, f.skipped])).toEqual([
      ['/h/3.ts', 'it changed since the search'],
    ])

    await model.undoReplaceAll()
    expect(disk.text('/h/1.ts')).toBe('foo\n')
    expect(disk.text('/h/2.ts')).toBe('a foo\n')
    expect(editor.texts.get('/h/open.ts')).toBe('foo\n')
    expect(model.getSnapshot().report).toMatchObject({ kind: 'undone', files: 3, skipped: [] })
  })
})
