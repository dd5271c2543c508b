import { describe, expect, it } from 'vitest'
import type { Diagnostic } from 'vscode-languageserver-protocol'
import { countProblems, groupProblems, problemRows } from './groupProblems'

const at = (
  line: number,
  character: number,
  message: string,
  extra: Partial<Diagnostic> = {},
): Diagnostic => ({
  range: { start: { line, character }, end: { line, character: character + 3 } },
  message,
  severity: 1,
  ...extra,
})

const snapshot = (diagnostics: Record<string, Diagnostic[]>, problems: string[] = []) => ({
  diagnostics: new Map(Object.entries(diagnostics)),
  problems,
})

describe('groupProblems', () => {
  it('groups by file, sorts files by path and problems by position, and shows paths relative to the home folder', () => {
    const files = groupProblems(
      snapshot({
        '/home/user/src/b.py': [at(9, 0, 'late'), at(2, 4, 'early'), at(2, 1, 'earlier')],
        '/home/user/a.py': [at(0, 0, 'first')],
        '/usr/lib/python3/typing.pyi': [at(5, 2, 'outside')],
      }),
      '/home/user',
    )
    expect(files.map((f) => [f.label, f.problems.map((p) => p.message)])).toEqual([
      ['a.py', ['first']],
      ['src/b.py', ['earlier', 'early', 'late']],
      ['/usr/lib/python3/typing.pyi', ['outside']],
    ])
    expect(files[1]?.path).toBe('/home/user/src/b.py')
  })

  it('turns LSP positions (from 0) into the editor’s lines and columns (from 1)', () => {
    const [file] = groupProblems(snapshot({ '/home/user/a.py': [at(2, 4, 'x')] }), '/home/user')
    expect(file?.problems[0]?.range).toEqual({ startLine: 3, startColumn: 5, endLine: 3, endColumn: 8 })
  })

  it('names severities, takes a diagnostic without one as an error, and leaves hints out', () => {
    const [file] = groupProblems(
      snapshot({
        '/home/user/a.py': [
          at(0, 0, 'w', { severity: 2 }),
          at(1, 0, 'i', { severity: 3 }),
          at(2, 0, 'h', { severity: 4 }),
          at(3, 0, 'none', { severity: undefined }),
        ],
        '/home/user/only-hints.py': [at(0, 0, 'h', { severity: 4 })],
      }),
      '/home/user',
    )
    expect(file?.problems.map((p) => [p.message, p.severity])).toEqual([
      ['w', 'warning'],
      ['i', 'info'],
      ['none', 'error'],
    ])
  })

  it('shows a Markdown message as its text', () => {
    const [file] = groupProblems(
      snapshot({
        '/home/user/a.py': [at(0, 0, '', { message: { kind: 'markdown', value: '`x` is unused' } })],
      }),
      '/home/user',
    )
    expect(file?.problems[0]?.message).toBe('`x` is unused')
  })

  it('puts errors before warnings at the same position', () => {
    const [file] = groupProblems(
      snapshot({ '/home/user/a.py': [at(0, 0, 'warning', { severity: 2 }), at(0, 0, 'error')] }),
      '/home/user',
    )
    expect(file?.problems.map((p) => p.message)).toEqual(['error', 'warning'])
  })

  it('writes the source and code as VS Code does', () => {
    const [file] = groupProblems(
      snapshot({
        '/home/user/a.ts': [
          at(0, 0, 'a', { source: 'ts', code: 2304 }),
          at(1, 0, 'b', { source: 'Pyright' }),
          at(2, 0, 'c', { code: 'E501' }),
          at(3, 0, 'd'),
        ],
      }),
      '/home/user',
    )
    expect(file?.problems.map((p) => p.source)).toEqual(['ts(2304)', 'Pyright', '(E501)', undefined])
  })

  it('shows what is wrong with the workspace’s languages file at the top, as errors without a position', () => {
    const files = groupProblems(
      snapshot({ '/home/user/a.py': [at(0, 0, 'x')] }, [
        '.sandbox-ide/languages.json: servers.python: unknown key "comand"',
        'not valid JSON',
      ]),
      '/home/user',
    )
    expect(files.map((f) => [f.path, f.label])).toEqual([
      ['/home/user/.sandbox-ide/languages.json', '.sandbox-ide/languages.json'],
      ['/home/user/a.py', 'a.py'],
    ])
    // Under the file's name, without it at the start of each message.
    expect(files[0]?.problems).toEqual([
      {
        severity: 'error',
        message: 'servers.python: unknown key "comand"',
        source: undefined,
        range: undefined,
      },
      { severity: 'error', message: 'not valid JSON', source: undefined, range: undefined },
    ])
  })

  it('lists a server’s diagnostics of the languages file in the same group, after its own problems', () => {
    const files = groupProblems(
      snapshot({ '/home/user/.sandbox-ide/languages.json': [at(2, 0, 'Expected comma')] }, ['bad']),
      '/home/user',
    )
    expect(files.map((f) => [f.label, f.problems.map((p) => p.message)])).toEqual([
      ['.sandbox-ide/languages.json', ['bad', 'Expected comma']],
    ])
  })

  it('keeps absolute paths while the home folder is not known', () => {
    const files = groupProblems(snapshot({ '/home/user/a.py': [at(0, 0, 'x')] }, ['bad']), undefined)
    expect(files.map((f) => f.label)).toEqual(['.sandbox-ide/languages.json', '/home/user/a.py'])
  })

  it('shows nothing for a workspace without problems', () => {
    expect(groupProblems(snapshot({}), '/home/user')).toEqual([])
  })
})

describe('problemRows', () => {
  const files = groupProblems(
    snapshot({
      '/home/user/a.py': [at(0, 0, 'a1'), at(1, 0, 'a2', { severity: 2 })],
      '/home/user/b.py': [at(0, 0, 'b1')],
    }),
    '/home/user',
  )

  it('lists each file, then its problems, with their places among their siblings', () => {
    expect(
      problemRows(files, new Set()).map((r) => [
        r.kind,
        r.kind === 'file' ? r.file.label : r.problem.message,
        r.posinset,
        r.setsize,
      ]),
    ).toEqual([
      ['file', 'a.py', 1, 2],
      ['problem', 'a1', 1, 2],
      ['problem', 'a2', 2, 2],
      ['file', 'b.py', 2, 2],
      ['problem', 'b1', 1, 1],
    ])
  })

  it('hides the problems of a collapsed file', () => {
    const rows = problemRows(files, new Set(['/home/user/a.py']))
    expect(rows.map((r) => (r.kind === 'file' ? [r.file.label, r.expanded] : r.problem.message))).toEqual([
      ['a.py', false],
      ['b.py', true],
      'b1',
    ])
  })
})

describe('countProblems', () => {
  it('counts errors and warnings, the languages file’s problems among the errors', () => {
    const files = groupProblems(
      snapshot(
        {
          '/home/user/a.py': [
            at(0, 0, 'a1'),
            at(1, 0, 'a2', { severity: 2 }),
            at(2, 0, 'a3', { severity: 3 }),
          ],
        },
        ['bad'],
      ),
      '/home/user',
    )
    expect(countProblems(files)).toEqual({ errors: 2, warnings: 1 })
  })
})
