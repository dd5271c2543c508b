// Code intelligence against a real runtime and the real language servers `npm start` installs
// (.language-servers/): diagnostics, a completion, a server killed and back, a missing one, one
// that does not speak LSP. The servers run on this machine here (the runtime fixture is not in a
// sandbox), so the table points at them by path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CompletionItem, CompletionList, Diagnostic } from 'vscode-languageserver-protocol'
import { startTestRuntime, type TestRuntime } from '../../../server/runtime/testing/runtimeFixture'
import { workspaceLanguagesFile } from '../../contract/languageTable'
import { FileWatch } from '../fileWatch'
import { SandboxSession } from '../SandboxSession'
import { until } from '../testing/until'
import { LanguageService } from './LanguageService'
import { parseLanguageTag } from './serverTag'
import { type SymbolHit, WorkspaceSymbols } from './workspaceSymbols'

const bin = new URL('../../../.language-servers/node_modules/.bin', import.meta.url).pathname
const encode = (text: string) => new TextEncoder().encode(text)

describe('LanguageService', { timeout: 120_000 }, () => {
  let rt: TestRuntime
  let session: SandboxSession
  let watch: FileWatch
  let service: LanguageService
  const texts = new Map<string, string>()
  const path = (name: string) => `${rt.home}/${name}`
  const messages: string[] = []
  const tabId = `test-${process.pid}`

  const writeTable = async (servers: Record<string, unknown>) => {
    await session.files.write(path(workspaceLanguagesFile), encode(JSON.stringify({ servers })))
    await service.loadWorkspaceFile()
  }
  const open = (name: string, language: string, text: string) => {
    texts.set(path(name), text)
    service.documentOpened(path(name), language, () => texts.get(path(name)) ?? '')
  }
  const diagnosticsOf = (name: string) => service.getSnapshot().diagnostics.get(path(name))
  const state = (key: string) => service.getSnapshot().servers.find((s) => s.key === key)?.state

  beforeAll(async () => {
    rt = await startTestRuntime()
    session = new SandboxSession({ source: 'runtime', runtimeUrl: rt.url, accessToken: rt.token ?? '' })
    session.start()
    await until('the session', () => (session.getSnapshot().state.kind === 'running' ? true : undefined))
    watch = new FileWatch(session)
    service = new LanguageService(session, watch, {
      tabId,
      applyEdit: async () => false,
      message: (_type, text) => messages.push(text),
    })
    await writeTable({
      python: { command: `${bin}/pyright-langserver --stdio` },
      typescript: { command: `${bin}/tsc --lsp --stdio` },
    })
  })
  afterAll(async () => {
    service?.dispose()
    watch?.dispose()
    session?.dispose()
    await rt?.close()
  })

  it('starts the server of a file about to open, before it opens', async () => {
    expect(state('python')).toBeUndefined()
    service.warmUp('python')
    await until('the warmed server', () => (state('python')?.kind === 'running' ? true : undefined))
    expect(service.getSnapshot().diagnostics.size).toBe(0)
  })

  it("underlines a Python name that is not defined, from Pyright's own diagnostics", async () => {
    await session.files.write(path('main.py'), encode('print(undefined_name)\n'))
    open('main.py', 'python', 'print(undefined_name)\n')
    const found = await until('diagnostics', () => diagnosticsOf('main.py'))
    expect(found.map((d: Diagnostic) => String(d.message)).join('\n')).toContain(
      '"undefined_name" is not defined',
    )
    expect(found[0]?.range.start).toEqual({ line: 0, character: 6 })
    expect(service.getSnapshot().errors).toBeGreaterThan(0)
  })

  it("finds a TypeScript type error, from TypeScript's own server, and completes a member", async () => {
    const text = 'const n: number = "x"\nconst s = "abc"\ns.\n'
    await session.files.write(path('app.ts'), encode(text))
    open('app.ts', 'typescript', text)
    const found = await until('diagnostics', () => diagnosticsOf('app.ts'))
    expect(found.map((d) => String(d.message)).join('\n')).toContain(
      "Type 'string' is not assignable to type 'number'",
    )
    const completion = await service.request<CompletionList | CompletionItem[]>(
      path('app.ts'),
      'textDocument/completion',
      (uri) => ({ textDocument: { uri }, position: { line: 2, character: 2 } }),
    )
    const items = Array.isArray(completion) ? completion : (completion?.items ?? [])
    expect(items.map((i) => i.label)).toContain('toUpperCase')
  })

  it('starts a server again when it is killed, and its diagnostics come back', async () => {
    const before = await session.processes.list()
    const pyright = before.find((p) => p.tag?.startsWith('ide-lsp:python:'))
    expect(pyright).toBeDefined()
    await session.processes.signal(pyright?.pid ?? 0, 'SIGKILL')
    await until('a restart', () => (state('python')?.kind === 'restarting' ? true : undefined), 10_000)
    await until('running again', () => (state('python')?.kind === 'running' ? true : undefined))
    texts.set(path('main.py'), 'print(other_undefined)\n')
    service.documentChanged(path('main.py'), [{ text: 'print(other_undefined)\n' }])
    const found = await until('new diagnostics', () =>
      diagnosticsOf('main.py')?.some((d) => String(d.message).includes('other_undefined')) ? true : undefined,
    )
    expect(found).toBe(true)
  })

  it('restarts a running server when asked: a fresh process, told of the open files, its crashes forgotten', async () => {
    const server = async () =>
      (await session.processes.list()).find((p) => p.tag?.startsWith('ide-lsp:python:'))
    const before = await server()
    expect(state('python')?.kind).toBe('running')
    const restarting = service.restart('python')
    expect(state('python')).toMatchObject({ kind: 'restarting', reason: 'restarting, as asked' })
    await restarting
    await until('running again', () => (state('python')?.kind === 'running' ? true : undefined))
    const after = await server()
    expect(after?.pid).toBeDefined()
    expect(after?.pid).not.toBe(before?.pid)
    expect((await session.processes.list()).some((p) => p.pid === before?.pid)).toBe(false)
    // Pyright reports on the open file it was told of again, as it now reads.
    texts.set(path('main.py'), 'print(third_undefined)\n')
    service.documentChanged(path('main.py'), [{ text: 'print(third_undefined)\n' }])
    await until('diagnostics from the new server', () =>
      diagnosticsOf('main.py')?.some((d) => String(d.message).includes('third_undefined')) ? true : undefined,
    )
    // The kill before the restart no longer counts: a crash now is the first, restarted soonest.
    await session.processes.signal(after?.pid ?? 0, 'SIGKILL')
    const crashed = await until('a restart', () => {
      const s = state('python')
      return s?.kind === 'restarting' && s.attempt > 0 ? s : undefined
    })
    expect(crashed.attempt).toBe(1)
    await until('running again', () => (state('python')?.kind === 'running' ? true : undefined))
  })

  it('finds a function and a method of a file not open with workspace/symbol, at their names', async () => {
    await session.files.write(
      path('helpers.py'),
      encode(
        'def greet_visitor(name: str) -> str:\n    return name\n\n\nclass Host:\n    def greet_visitor_twice(self) -> None:\n        pass\n',
      ),
    )
    const symbols = new WorkspaceSymbols(service)
    // Pyright learns of the new file from the watch, then indexes it.
    const found = await until('the symbols', async () => {
      const result = await symbols.search('greet_visitor')
      return result.hits.length >= 2 ? result : undefined
    })
    expect(found.asked).toBeGreaterThanOrEqual(1)
    expect(found.hits.slice(0, 2)).toMatchObject([
      {
        name: 'greet_visitor',
        kind: 12,
        path: path('helpers.py'),
        range: { start: { line: 0, character: 4 }, end: { line: 0, character: 17 } },
        serverKey: 'python',
      },
      {
        name: 'greet_visitor_twice',
        kind: 6,
        container: 'Host',
        path: path('helpers.py'),
        range: { start: { line: 5, character: 8 } },
      },
    ])
    expect(await symbols.resolve(found.hits[0] as SymbolHit)).toBe(found.hits[0])
    // A search typed past is cancelled: its answer is empty, not late.
    const typedPast = new AbortController()
    typedPast.abort()
    expect((await symbols.search('greet_visitor', { signal: typedPast.signal })).hits).toEqual([])
  })

  it('says a server is missing, with how to install it, and does not retry it', async () => {
    await writeTable({
      python: { command: 'no-such-language-server --stdio', install: 'npm install -g nothing' },
    })
    const missing = await until('missing', () => {
      const s = state('python')
      return s?.kind === 'missing' ? s : undefined
    })
    expect(missing.reason).toContain('not installed')
    expect(missing.install).toBe('npm install -g nothing')
    await new Promise((r) => setTimeout(r, 1500))
    expect(state('python')?.kind).toBe('missing')
  })

  it('stops a server that writes what is not LSP, and says what it wrote', async () => {
    await writeTable({ python: { command: 'yes not-lsp' } })
    const stopped = await until('a restart with a reason', () => {
      const s = state('python')
      return s?.kind === 'restarting' && s.reason !== 'waiting for the sandbox' ? s : undefined
    })
    expect(stopped.reason).toContain('not an LSP header: not-lsp⏎not-lsp')
  })

  it('tells a server of an open document once, however its opening and the start cross', async () => {
    // A server that answers initialize and writes down every message it is sent.
    const recorder = `import { appendFileSync } from 'node:fs'
let pending = Buffer.alloc(0)
const send = (message) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }))
  process.stdout.write('Content-Length: ' + body.length + '\\r\\n\\r\\n')
  process.stdout.write(body)
}
process.stdin.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk])
  for (;;) {
    const end = pending.indexOf('\\r\\n\\r\\n')
    if (end < 0) return
    const length = Number(/Content-Length: (\\d+)/i.exec(pending.subarray(0, end).toString())[1])
    if (pending.length < end + 4 + length) return
    const message = JSON.parse(pending.subarray(end + 4, end + 4 + length).toString())
    pending = pending.subarray(end + 4 + length)
    appendFileSync(process.argv[2], message.method + ' ' + (message.params?.textDocument?.uri ?? '') + '\\n')
    if (message.method === 'initialize') send({ id: message.id, result: { capabilities: { textDocumentSync: 1 } } })
    else if (message.method === 'shutdown') send({ id: message.id, result: null })
    else if (message.method === 'exit') process.exit(0)
  }
})
`
    await session.files.write(path('recorder.mjs'), encode(recorder))
    await writeTable({
      python: { command: `${process.execPath} ${path('recorder.mjs')} ${path('recorded.log')}` },
    })
    await until('the recorder running', () => (state('python')?.kind === 'running' ? true : undefined))
    // The editor opens it again while the server, just started, told of it already.
    open('main.py', 'python', texts.get(path('main.py')) ?? '')
    const opens = async () =>
      new TextDecoder()
        .decode(await session.files.read(path('recorded.log')))
        .split('\n')
        .filter((line) => line.startsWith('textDocument/didOpen') && line.endsWith('/main.py'))
    await until('the didOpen', async () => ((await opens()).length > 0 ? true : undefined))
    await new Promise((r) => setTimeout(r, 500))
    expect(await opens()).toHaveLength(1)
  })

  it("lays a lab's servers over the workspace file's, and stops every one for an exam", async () => {
    await writeTable({ python: { command: 'no-such-language-server --stdio' } })
    await until('missing', () => (state('python')?.kind === 'missing' ? true : undefined))
    service.setLabOverrides({
      enabled: true,
      servers: { python: { command: `${bin}/pyright-langserver --stdio` } },
    })
    await until('the lab’s server running', () => (state('python')?.kind === 'running' ? true : undefined))
    await until('diagnostics', () => diagnosticsOf('main.py'))

    service.setLabOverrides({ enabled: false, servers: {} })
    expect(service.getSnapshot()).toMatchObject({ enabled: false, servers: [], errors: 0 })
    expect(service.getSnapshot().diagnostics.size).toBe(0)
    const serverProcesses = async () =>
      (await session.processes.list()).filter((p) => p.tag?.startsWith('ide-lsp:')).length
    await until('no server process', async () => ((await serverProcesses()) === 0 ? true : undefined))

    service.setLabOverrides(undefined)
    expect(service.getSnapshot().enabled).toBe(true)
    await until('the workspace file’s server again', () =>
      state('python')?.kind === 'missing' ? true : undefined,
    )
  })

  it("ends its tab's servers that an earlier page left running, and no other tab's", async () => {
    await writeTable({ python: { command: `${bin}/pyright-langserver --stdio` } })
    await until('running', () => (state('python')?.kind === 'running' ? true : undefined))
    const serverOf = async (tab: string) =>
      (await session.processes.list()).find((p) => {
        const tagged = parseLanguageTag(p.tag)
        return tagged?.kind === 'server' && tagged.key === 'python' && tagged.tabId === tab
      })
    const left = await serverOf(tabId)
    expect(parseLanguageTag(left?.tag)).toMatchObject({ name: 'Pyright' })
    // Another page (a reload of this tab, another tab), with the same languages file.
    const pageOf = async (tab: string) => {
      const page = new LanguageService(session, watch, {
        tabId: tab,
        applyEdit: async () => false,
        message: () => {},
      })
      await page.loadWorkspaceFile()
      page.documentOpened(path('main.py'), 'python', () => texts.get(path('main.py')) ?? '')
      return page
    }
    const otherTab = await pageOf(`${tabId}-other`)
    const reloaded = await pageOf(tabId)
    try {
      await until('the other tab’s server', () =>
        otherTab.getSnapshot().servers[0]?.state.kind === 'running' ? true : undefined,
      )
      await until('the leftover ended', async () =>
        (await session.processes.list()).some((p) => p.pid === left?.pid) ? undefined : true,
      )
      expect(await serverOf(`${tabId}-other`)).toBeDefined()
    } finally {
      otherTab.dispose()
      reloaded.dispose()
    }
  })
})
