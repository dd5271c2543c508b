import { describe, expect, it } from 'vitest'
import { localLanguageServersBin } from '../../contract/languageServers'
import { defaultLanguageTable, parseLanguageOverrides } from '../../contract/languageTable'
import { applyOverrides, launchCommand, serverFor } from './languageTable'

describe('the table of language servers', () => {
  it('serves Python and TypeScript by default, JavaScript by the TypeScript server', () => {
    expect(serverFor(defaultLanguageTable, 'python')?.[1].command).toBe('pyright-langserver --stdio')
    expect(serverFor(defaultLanguageTable, 'javascript')?.[0]).toBe('typescript')
    expect(serverFor(defaultLanguageTable, 'c')).toBeUndefined()
  })

  it('looks for a server on the sandbox own PATH first, then where the local stack puts them', () => {
    expect(launchCommand({ name: 'x', languages: ['x'], command: 'x-ls --stdio' })).toBe(
      `PATH="$PATH:${localLanguageServersBin}"; exec x-ls --stdio`,
    )
  })

  it('takes a workspace file that adds a server, changes one and turns another off', () => {
    const parsed = parseLanguageOverrides({
      servers: {
        c: {
          name: 'clangd',
          languages: ['c', 'cpp'],
          command: 'clangd',
          install: 'sudo apt-get install -y clangd',
        },
        python: { command: 'pylsp' },
        typescript: false,
      },
    })
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    const table = applyOverrides(defaultLanguageTable, parsed.overrides)
    expect(serverFor(table, 'cpp')?.[1]).toMatchObject({ name: 'clangd', command: 'clangd' })
    expect(table.python).toMatchObject({ name: 'Pyright', languages: ['python'], command: 'pylsp' })
    expect(serverFor(table, 'typescript')).toBeUndefined()
  })

  it('turns everything off when a lab says so, after the workspace', () => {
    const workspace = parseLanguageOverrides({ servers: { python: { command: 'pylsp' } } })
    const lab = parseLanguageOverrides({ enabled: false })
    if (!workspace.ok || !lab.ok) throw new Error('both parse')
    expect(applyOverrides(defaultLanguageTable, workspace.overrides, lab.overrides)).toEqual({})
  })
})
