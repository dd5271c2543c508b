import { describe, expect, it } from 'vitest'
import { parseLanguageOverrides } from './languageTable'

describe('parseLanguageOverrides', () => {
  it('reads a table that adds a server, changes one and turns another off', () => {
    expect(
      parseLanguageOverrides({
        servers: {
          c: { languages: ['c'], command: 'clangd' },
          python: { command: 'pylsp' },
          typescript: false,
        },
      }),
    ).toEqual({
      ok: true,
      overrides: {
        enabled: true,
        servers: {
          c: { languages: ['c'], command: 'clangd' },
          python: { command: 'pylsp' },
          typescript: false,
        },
      },
    })
    expect(parseLanguageOverrides({ enabled: false })).toEqual({
      ok: true,
      overrides: { enabled: false, servers: {} },
    })
  })

  it('lists each problem of a wrong file, and where it is', () => {
    const parsed = parseLanguageOverrides({
      enabeld: true,
      servers: { c: { languages: 'c' }, python: { comand: 'x' }, go: 42 },
    })
    expect(parsed).toEqual({
      ok: false,
      problems: [
        '.sandbox-ide/languages.json: unknown key "enabeld"',
        '.sandbox-ide/languages.json: servers.c.languages: must be a list of language ids',
        '.sandbox-ide/languages.json: servers.c: a new server needs "languages" and "command"',
        '.sandbox-ide/languages.json: servers.python: unknown key "comand"',
        '.sandbox-ide/languages.json: servers.go: must be an object, or false to turn it off',
      ],
    })
    expect(parseLanguageOverrides([], 'lab.json')).toEqual({
      ok: false,
      problems: ['lab.json: must be an object'],
    })
  })

  it('refuses wrong types of every field', () => {
    const parsed = parseLanguageOverrides({
      enabled: 'no',
      servers: { python: { name: '', install: 3, settings: [] } },
    })
    expect(parsed).toEqual({
      ok: false,
      problems: [
        '.sandbox-ide/languages.json: "enabled" must be true or false',
        '.sandbox-ide/languages.json: servers.python.name: must be a non-empty string',
        '.sandbox-ide/languages.json: servers.python.install: must be a non-empty string',
        '.sandbox-ide/languages.json: servers.python.settings: must be an object',
      ],
    })
    expect(parseLanguageOverrides({ servers: [] })).toEqual({
      ok: false,
      problems: ['.sandbox-ide/languages.json: "servers" must be an object'],
    })
  })
})
