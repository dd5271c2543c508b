// Go to Symbol in Workspace's side of the servers: their two shapes of answer, the merge and its
// ranking, who is asked, cancellation, and resolving a symbol that came without its place. The
// real exchange with Pyright is in LanguageService.test.ts.
import { describe, expect, it } from 'vitest'
import type { ServerCapabilities, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol'
import {
  findWorkspaceSymbols,
  mergeSymbolHits,
  resolveSymbol,
  type SymbolClient,
  type SymbolHit,
  symbolHits,
} from './workspaceSymbols'

const range = (line: number, character: number, length: number) => ({
  start: { line, character },
  end: { line, character: character + length },
})

const information = (name: string, uri: string, line = 0, containerName?: string): SymbolInformation => ({
  name,
  kind: 12,
  location: { uri, range: range(line, 4, name.length) },
  ...(containerName ? { containerName } : {}),
})

const hit = (name: string, path = '/home/user/a.py', line = 0): SymbolHit =>
  symbolHits('python', [information(name, `file://${path}`, line)])[0] as SymbolHit

/** A client whose server answers each method from `answers` (the params it was sent recorded). */
function fakeClient(
  key: string,
  capabilities: ServerCapabilities | undefined,
  answers: Record<string, (params: unknown, signal?: AbortSignal) => unknown>,
): SymbolClient & { sent: { method: string; params: unknown }[] } {
  const sent: { method: string; params: unknown }[] = []
  return {
    key,
    capabilities,
    sent,
    async request<R>(method: string, params: unknown, options?: { signal?: AbortSignal }) {
      sent.push({ method, params })
      return (await answers[method]?.(params, options?.signal)) as R | undefined
    },
  }
}

describe('symbolHits', () => {
  it('reads SymbolInformation: file, place, container and deprecation', () => {
    const hits = symbolHits('python', [
      information('greet', 'file:///home/user/py/helpers.py', 2, 'Greeter'),
      { ...information('old', 'file:///home/user/py/helpers.py'), deprecated: true },
    ])
    expect(hits[0]).toMatchObject({
      name: 'greet',
      kind: 12,
      container: 'Greeter',
      path: '/home/user/py/helpers.py',
      range: range(2, 4, 5),
      deprecated: false,
      serverKey: 'python',
    })
    expect(hits[1]?.deprecated).toBe(true)
  })

  it('reads WorkspaceSymbol, with or without a range, its tags, and decodes the path', () => {
    const withoutRange: WorkspaceSymbol = {
      name: 'Widget',
      kind: 5,
      tags: [1],
      location: { uri: 'file:///home/user/my%20app/w.ts' },
      data: { id: 7 },
    }
    const [placeless] = symbolHits('typescript', [withoutRange])
    expect(placeless).toMatchObject({
      name: 'Widget',
      kind: 5,
      path: '/home/user/my app/w.ts',
      deprecated: true,
    })
    expect(placeless?.range).toBeUndefined()
    expect(placeless?.item).toBe(withoutRange)
  })

  it('leaves out what is not a file of the sandbox or not shaped as LSP says', () => {
    expect(symbolHits('x', null)).toEqual([])
    expect(symbolHits('x', { name: 'not a list' })).toEqual([])
    expect(
      symbolHits('x', [
        information('untitled', 'untitled:Untitled-1'),
        { name: 'no location', kind: 12 },
        { name: 42, kind: 12, location: { uri: 'file:///a' } },
        'text',
        null,
        { name: 'bad range', kind: 13, location: { uri: 'file:///home/user/b.py', range: { start: 1 } } },
      ]).map((h) => [h.name, h.range]),
    ).toEqual([['bad range', undefined]])
  })
})

describe('mergeSymbolHits', () => {
  it('ranks the name itself, then its start, then a word in it, then anywhere, then the rest', () => {
    const names = [
      'read_config',
      'config',
      'reconfigure',
      'Config',
      'configLoader',
      'loadConfig',
      'cxoxnxfig',
    ]
    const { hits } = mergeSymbolHits([names.map((name) => hit(name))], 'config')
    expect(hits.map((h) => h.name)).toEqual([
      'config',
      'Config',
      'configLoader',
      'loadConfig',
      'read_config',
      'reconfigure',
      'cxoxnxfig',
    ])
  })

  it('lists a symbol two servers found once, and breaks ties by file and line', () => {
    const { hits } = mergeSymbolHits(
      [
        [hit('main', '/home/user/b.py'), hit('main', '/home/user/a.py', 9)],
        [hit('main', '/home/user/a.py', 9), hit('main', '/home/user/a.py', 1)],
      ],
      'main',
    )
    expect(hits.map((h) => `${h.path}:${h.range?.start.line}`)).toEqual([
      '/home/user/a.py:1',
      '/home/user/a.py:9',
      '/home/user/b.py:0',
    ])
  })

  it('keeps the best up to the limit and says there were more', () => {
    const many = Array.from({ length: 250 }, (_, i) => hit(`item${i}`, '/home/user/a.py', i))
    const capped = mergeSymbolHits([many], 'item')
    expect(capped.hits).toHaveLength(200)
    expect(capped.truncated).toBe(true)
    expect(capped.hits[0]?.name).toBe('item0')
    expect(mergeSymbolHits([many.slice(0, 5)], 'item')).toMatchObject({ truncated: false })
  })
})

describe('findWorkspaceSymbols', () => {
  it('asks every server that offers workspace symbols, and merges both shapes of answer', async () => {
    const python = fakeClient(
      'python',
      { workspaceSymbolProvider: true },
      {
        'workspace/symbol': () => [information('greet', 'file:///home/user/helpers.py')],
      },
    )
    const typescript = fakeClient(
      'typescript',
      { workspaceSymbolProvider: { resolveProvider: true } },
      {
        'workspace/symbol': (): WorkspaceSymbol[] => [
          { name: 'greeting', kind: 13, location: { uri: 'file:///home/user/app.ts' } },
        ],
      },
    )
    const silent = fakeClient('css', {}, {})
    const stopped = fakeClient('go', undefined, {})
    const found = await findWorkspaceSymbols([python, typescript, silent, stopped], 'greet')
    expect(found.asked).toBe(2)
    expect(found.hits.map((h) => [h.name, h.serverKey])).toEqual([
      ['greet', 'python'],
      ['greeting', 'typescript'],
    ])
    expect(python.sent).toEqual([{ method: 'workspace/symbol', params: { query: 'greet' } }])
    expect(silent.sent).toEqual([])
    expect(stopped.sent).toEqual([])
  })

  it('says no server was asked where none offers symbols, and asks nothing for an empty query', async () => {
    expect(await findWorkspaceSymbols([fakeClient('css', {}, {})], 'x')).toEqual({
      hits: [],
      asked: 0,
      truncated: false,
    })
    const python = fakeClient('python', { workspaceSymbolProvider: true }, {})
    expect(await findWorkspaceSymbols([python], '  ')).toMatchObject({ asked: 1, hits: [] })
    expect(python.sent).toEqual([])
  })

  it('hands the abort signal to each request; a server that fails adds nothing', async () => {
    const seen: (AbortSignal | undefined)[] = []
    const slow = fakeClient(
      'python',
      { workspaceSymbolProvider: true },
      {
        'workspace/symbol': (_params, signal) => {
          seen.push(signal)
          return undefined
        },
      },
    )
    const controller = new AbortController()
    const found = await findWorkspaceSymbols([slow], 'a', { signal: controller.signal })
    expect(seen).toEqual([controller.signal])
    expect(found).toEqual({ hits: [], asked: 1, truncated: false })
  })
})

describe('resolveSymbol', () => {
  const placeless = symbolHits('typescript', [
    { name: 'Widget', kind: 5, location: { uri: 'file:///home/user/w.ts' }, data: 1 },
  ])[0] as SymbolHit

  it('asks the server for the place of a symbol that came without one', async () => {
    const client = fakeClient(
      'typescript',
      { workspaceSymbolProvider: { resolveProvider: true } },
      {
        'workspaceSymbol/resolve': (item) => ({
          ...(item as WorkspaceSymbol),
          location: { uri: 'file:///home/user/w.ts', range: range(3, 13, 6) },
        }),
      },
    )
    const resolved = await resolveSymbol(client, placeless)
    expect(resolved.range).toEqual(range(3, 13, 6))
    expect(client.sent[0]).toEqual({ method: 'workspaceSymbol/resolve', params: placeless.item })
  })

  it('keeps it placeless where the server cannot resolve, or fails to', async () => {
    const cannot = fakeClient('typescript', { workspaceSymbolProvider: true }, {})
    expect(await resolveSymbol(cannot, placeless)).toBe(placeless)
    expect(cannot.sent).toEqual([])
    const fails = fakeClient(
      'typescript',
      { workspaceSymbolProvider: { resolveProvider: true } },
      { 'workspaceSymbol/resolve': () => undefined },
    )
    expect(await resolveSymbol(fails, placeless)).toBe(placeless)
    expect(await resolveSymbol(undefined, placeless)).toBe(placeless)
  })

  it('asks nothing for a symbol that has its place', async () => {
    const client = fakeClient('python', { workspaceSymbolProvider: { resolveProvider: true } }, {})
    const placed = hit('greet')
    expect(await resolveSymbol(client, placed)).toBe(placed)
    expect(client.sent).toEqual([])
  })
})
